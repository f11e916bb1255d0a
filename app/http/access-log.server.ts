import type { IncomingMessage } from "node:http";
import type { AppContext } from "../services/app-context.server.ts";
import { redactUrl } from "../services/logger.server.ts";
import { routeLabel } from "../services/metrics.server.ts";

const ROUTE = routeLabel("/f/");

/** Metrics and the access log line of the /f/ path, which the Express logging middleware never sees. */
export class AccessLog {
  constructor(
    private readonly ctx: Pick<AppContext, "metrics" | "logger">,
    private readonly clientIp: (req: IncomingMessage) => string,
  ) {}

  record(req: IncomingMessage, status: number, started: bigint, requestId: string): void {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const method = req.method ?? "GET";
    this.ctx.metrics.httpRequests.inc({ method, route: ROUTE, status: String(status) });
    this.ctx.metrics.httpDuration.observe({ method, route: ROUTE }, seconds);
    this.ctx.logger.info(
      { requestId, method, url: redactUrl(req.url ?? ""), status, ms: Math.round(seconds * 1000), ip: this.clientIp(req) },
      "request",
    );
  }
}
