import { randomUUID } from "node:crypto";
import type { AppContext } from "~/services/app-context.server";
import { redactUrl } from "~/services/platform/logger.server";

/** The caller's X-Request-Id (trimmed to 100 characters), or a new one. */
export function requestIdOf(header: string | string[] | undefined): string {
  return (typeof header === "string" && header.slice(0, 100)) || randomUUID();
}

export interface FinishedRequest {
  requestId: string;
  method: string;
  /** The metrics label (`routeLabel`), not the raw path. */
  route: string;
  url: string;
  status: number;
  /** `process.hrtime.bigint()` when the request arrived. */
  started: bigint;
  ip: string | undefined;
}

/** The metrics and the JSON access log line of one request: the Express app's and /f/'s alike. */
export function recordRequest(ctx: Pick<AppContext, "metrics" | "logger">, request: FinishedRequest): void {
  const seconds = Number(process.hrtime.bigint() - request.started) / 1e9;
  const { method, route, status } = request;
  ctx.metrics.httpRequests.inc({ method, route, status: String(status) });
  ctx.metrics.httpDuration.observe({ method, route }, seconds);
  ctx.logger.info(
    { requestId: request.requestId, method, url: redactUrl(request.url), status, ms: Math.round(seconds * 1000), ip: request.ip },
    "request",
  );
}
