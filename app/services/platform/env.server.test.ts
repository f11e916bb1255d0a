import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "~/services/platform/env.server";

function problems(source: Record<string, string>): string[] {
  try {
    loadConfig(source);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

describe("loadConfig", () => {
  it("runs on embedded defaults with nothing set", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      NODE_ENV: "development",
      PORT: 3000,
      APP_NAME: "Stash",
      appUrl: "http://localhost:3000",
      cdnBaseUrl: "http://localhost:3000",
      cookieSecure: false,
      maxUploadBytes: 50 * 1024 * 1024,
      discordEnabled: false,
      stripeEnabled: false,
      JOBS_MODE: "scheduled",
      S3_FORCE_PATH_STYLE: false,
    });
    expect(config.dataDir).toBe(path.resolve("./data"));
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it("drops trailing slashes, and secures cookies on an https APP_URL unless told otherwise", () => {
    const config = loadConfig({ APP_URL: "https://stash.example.com///", CDN_BASE_URL: "https://cdn.example.com/" });
    expect([config.appUrl, config.cdnBaseUrl, config.cookieSecure]).toEqual(["https://stash.example.com", "https://cdn.example.com", true]);
    expect(loadConfig({ APP_URL: "https://stash.example.com", COOKIE_SECURE: "no" }).cookieSecure).toBe(false);
  });

  it("reads numbers and booleans from text, and blanks as unset", () => {
    const config = loadConfig({ PORT: "8080", MAX_UPLOAD_MB: "10000", S3_FORCE_PATH_STYLE: "1", DATABASE_URL: "  ", S3_BUCKET: "" });
    expect([config.PORT, config.maxUploadBytes, config.S3_FORCE_PATH_STYLE, config.DATABASE_URL, config.S3_BUCKET]).toEqual([8080, 10_000 * 1024 * 1024, true, undefined, undefined]);
  });

  it("names each bad variable at once", () => {
    const found = problems({ PORT: "70000", MAX_UPLOAD_MB: "0", LOG_LEVEL: "loud", APP_URL: "not a url", S3_FORCE_PATH_STYLE: "maybe", JOBS_MODE: "sometimes" });
    expect(found.map((p) => p.split(":")[0])).toEqual(expect.arrayContaining(["PORT", "MAX_UPLOAD_MB", "LOG_LEVEL", "APP_URL", "S3_FORCE_PATH_STYLE", "JOBS_MODE"]));
    expect(found).toHaveLength(6);
  });

  it("refuses half-configured S3, Discord and Stripe, saying what is missing", () => {
    expect(problems({ S3_BUCKET: "files" })).toEqual(["S3_BUCKET: S3_BUCKET needs S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY as well"]);
    expect(problems({ DISCORD_CLIENT_SECRET: "s" })).toEqual(["DISCORD_CLIENT_ID: set both DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET, or neither"]);
    expect(problems({ STRIPE_SECRET_KEY: "sk_test" })).toEqual(["STRIPE_WEBHOOK_SECRET: required when STRIPE_SECRET_KEY is set"]);
    expect(loadConfig({ DISCORD_CLIENT_ID: "1", DISCORD_CLIENT_SECRET: "s", STRIPE_SECRET_KEY: "k", STRIPE_WEBHOOK_SECRET: "w" })).toMatchObject({ discordEnabled: true, stripeEnabled: true });
  });

  it("bounds an APP_NAME that rebrands the instance", () => {
    expect(loadConfig({ APP_NAME: "  Evidence Locker " }).APP_NAME).toBe("Evidence Locker");
    expect(problems({ APP_NAME: "x".repeat(41) })[0]).toMatch(/^APP_NAME:/);
    expect(problems({ APP_NAME: "   " })[0]).toMatch(/^APP_NAME:/);
  });
});
