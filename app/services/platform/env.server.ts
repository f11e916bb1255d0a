import path from "node:path";
import { z } from "zod";

const bool = z
  .enum(["true", "false", "1", "0", "yes", "no"])
  .transform((v) => v === "true" || v === "1" || v === "yes");

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === "" ? undefined : v))
  .optional();

const optionalUrl = z
  .string()
  .trim()
  .transform((v) => (v === "" ? undefined : v))
  .pipe(z.url().optional())
  .optional();

const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().default("0.0.0.0"),
    APP_NAME: z.string().trim().min(1).max(40).default("Stash"),
    APP_URL: z.url().default("http://localhost:3000"),
    CDN_BASE_URL: optionalUrl,
    DATA_DIR: z.string().default("./data"),
    TRUST_PROXY: z.string().default("loopback"),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    REQUEST_TIMEOUT_S: z.coerce.number().int().min(0).max(86_400).default(3600),
    IDLE_TIMEOUT_S: z.coerce.number().int().min(0).max(3600).default(120),
    JOBS_MODE: z.enum(["scheduled", "manual"]).default("scheduled"),

    DATABASE_URL: optionalUrl,
    // Two at least: a start-up lock holds one connection while the work it guards uses another.
    DATABASE_POOL_MAX: z.coerce.number().int().min(2).max(200).default(10),
    // How long an instance waits for another's migrations or job queue setup before it gives up.
    STARTUP_LOCK_TIMEOUT_S: z.coerce.number().int().min(1).max(86_400).default(600),

    S3_BUCKET: optionalString,
    S3_ENDPOINT: optionalUrl,
    S3_REGION: z.string().default("us-east-1"),
    S3_ACCESS_KEY_ID: optionalString,
    S3_SECRET_ACCESS_KEY: optionalString,
    S3_FORCE_PATH_STYLE: bool.default(false),
    S3_SERVE: z.enum(["proxy", "redirect"]).default("proxy"),

    REDIS_URL: optionalUrl,
    // clamd over TCP (tcp://host:3310): every upload is scanned before it is published; unset = no scanning.
    CLAMAV_URL: optionalUrl,

    SMTP_URL: optionalUrl,
    MAIL_FROM: z.string().default("Stash <no-reply@localhost>"),

    COOKIE_SECURE: bool.optional(),

    DISCORD_CLIENT_ID: optionalString,
    DISCORD_CLIENT_SECRET: optionalString,
    DISCORD_API_BASE: z.url().default("https://discord.com/api"),
    // Lets URLs users give (imports, webhook endpoints) reach loopback and private addresses: self-hosting only.
    OUTBOUND_ALLOW_PRIVATE_NETWORKS: bool.default(false),
    DISCORD_AUTHORIZE_URL: z.url().default("https://discord.com/oauth2/authorize"),
    // Where imports fetch Discord CDN files instead of cdn.discordapp.com / media.discordapp.net (a mirror, tests).
    DISCORD_CDN_BASE: optionalUrl,
    // Fivemanage's API, whose file list an import reads with the customer's key.
    FIVEMANAGE_API_BASE: z.url().default("https://api.fivemanage.com/api"),
    // Largest export or archive an import accepts (a DiscordChatExporter zip with --media, a folder of files).
    IMPORT_MAX_ARCHIVE_MB: z.coerce.number().int().min(1).max(102_400).default(2048),

    STRIPE_SECRET_KEY: optionalString,
    STRIPE_WEBHOOK_SECRET: optionalString,
    STRIPE_PRICE_STARTER: optionalString,
    STRIPE_PRICE_PROFESSIONAL: optionalString,
    STRIPE_PRICE_BUSINESS: optionalString,
    STRIPE_API_BASE: optionalUrl,

    MAX_UPLOAD_MB: z.coerce.number().int().min(1).max(10_000).default(50),
    MAX_IMAGE_PIXELS: z.coerce.number().int().min(1).default(50_000_000),
    ACCEL_REDIRECT_PREFIX: optionalString,
    FILE_MEMORY_CACHE_MB: z.coerce.number().int().min(0).max(65_536).default(64),
    FILE_MEMORY_CACHE_MAX_FILE_KB: z.coerce.number().int().min(0).max(65_536).default(256),
    MAX_IMAGE_FRAMES: z.coerce.number().int().min(1).default(500),
    VARIANTS_PER_FILE: z.coerce.number().int().min(1).max(1000).default(10),
    TRANSFORMS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(60),
    // Unset: the binary of the @ffmpeg-installer/@ffprobe-installer package, else the one on PATH.
    FFMPEG_PATH: optionalString,
    FFPROBE_PATH: optionalString,
  })
  .superRefine((env, ctx) => {
    const s3 = [env.S3_BUCKET, env.S3_ACCESS_KEY_ID, env.S3_SECRET_ACCESS_KEY];
    if (env.S3_BUCKET && s3.some((v) => !v)) {
      ctx.addIssue({
        code: "custom",
        path: ["S3_BUCKET"],
        message: "S3_BUCKET needs S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY as well",
      });
    }
    if (Boolean(env.DISCORD_CLIENT_ID) !== Boolean(env.DISCORD_CLIENT_SECRET)) {
      ctx.addIssue({
        code: "custom",
        path: ["DISCORD_CLIENT_ID"],
        message: "set both DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET, or neither",
      });
    }
    if (env.STRIPE_SECRET_KEY && !env.STRIPE_WEBHOOK_SECRET) {
      ctx.addIssue({
        code: "custom",
        path: ["STRIPE_WEBHOOK_SECRET"],
        message: "required when STRIPE_SECRET_KEY is set",
      });
    }
  });

export type Env = z.infer<typeof envSchema>;

export type Config = Env & {
  appUrl: string;
  cdnBaseUrl: string;
  dataDir: string;
  cookieSecure: boolean;
  maxUploadBytes: number;
  discordEnabled: boolean;
  stripeEnabled: boolean;
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

const stripSlash = (url: string) => url.replace(/\/+$/, "");

/** Reads and validates the environment; throws a ConfigError naming each bad variable. */
export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join(".") || "env"}: ${issue.message}`),
    );
  }
  const env = parsed.data;
  const appUrl = stripSlash(env.APP_URL);
  return {
    ...env,
    appUrl,
    cdnBaseUrl: stripSlash(env.CDN_BASE_URL ?? appUrl),
    dataDir: path.resolve(env.DATA_DIR),
    cookieSecure: env.COOKIE_SECURE ?? appUrl.startsWith("https://"),
    maxUploadBytes: env.MAX_UPLOAD_MB * 1024 * 1024,
    discordEnabled: Boolean(env.DISCORD_CLIENT_ID && env.DISCORD_CLIENT_SECRET),
    stripeEnabled: Boolean(env.STRIPE_SECRET_KEY),
  };
}
