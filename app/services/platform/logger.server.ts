import pino from "pino";

export type Logger = pino.Logger;

export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: "stash" },
    redact: { paths: ["req.headers.authorization", "req.headers['x-api-key']", "req.headers.cookie"], remove: true },
  });
}

/** Query parameters that carry secrets; logged URLs never include their values. */
const SECRET_PARAMS = /([?&](?:apiKey|api_key|api|token|key)=)[^&]*/gi;

export function redactUrl(url: string): string {
  return url.includes("?") ? url.replace(SECRET_PARAMS, "$1[redacted]") : url;
}
