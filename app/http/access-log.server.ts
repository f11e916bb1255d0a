import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AppContext } from "~/services/app-context.server";
import { redactUrl } from "~/services/platform/logger.server";
import { routeLabel } from "~/services/platform/metrics.server";

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

/**
 * The host's per-request duties for a request answered outside Express (X-Request-Id, then the
 * metrics and the access log once the answer is out); returns the request's id.
 */
export function trackRequest(ctx: Pick<AppContext, "metrics" | "logger">, req: IncomingMessage, res: ServerResponse, ip: string): string {
  const requestId = requestIdOf(req.headers["x-request-id"]);
  res.setHeader("X-Request-Id", requestId);
  const started = process.hrtime.bigint();
  const url = req.url ?? "/";
  res.once("finish", () => {
    const mark = url.indexOf("?");
    recordRequest(ctx, { requestId, method: req.method ?? "GET", route: routeLabel(mark === -1 ? url : url.slice(0, mark)), url, status: res.statusCode, started, ip });
  });
  return requestId;
}
