import { describe, expect, it } from "vitest";
import { redactUrl } from "~/services/platform/logger.server";

describe("redactUrl: what a logged URL may show", () => {
  it("hides the value of every query parameter a key can come in, whatever its case", () => {
    expect(redactUrl("/api/search?apiKey=sk_secret&category=x")).toBe("/api/search?apiKey=[redacted]&category=x");
    expect(redactUrl("/f/a/b/c.png?w=320&API_KEY=sk_1&token=t&key=k&api=a&apikey=z")).toBe(
      "/f/a/b/c.png?w=320&API_KEY=[redacted]&token=[redacted]&key=[redacted]&api=[redacted]&apikey=[redacted]",
    );
  });

  it("keeps other parameters that merely end like one, and paths without a query", () => {
    expect(redactUrl("/api/search?monkey=1&hotkey=2&category=keys")).toBe("/api/search?monkey=1&hotkey=2&category=keys");
    expect(redactUrl("/api/keys/key=abc")).toBe("/api/keys/key=abc");
  });

  it("redacts an empty value and a value holding encoded characters", () => {
    expect(redactUrl("/x?key=&token=a%26b%3Dc")).toBe("/x?key=[redacted]&token=[redacted]");
  });
});
