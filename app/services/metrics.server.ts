import client from "prom-client";

export interface Metrics {
  registry: client.Registry;
  httpRequests: client.Counter<"method" | "route" | "status">;
  httpDuration: client.Histogram<"method" | "route">;
  uploadBytes: client.Counter;
  storedBytes: client.Gauge;
}

/**
 * One registry per app context (tests run several servers in one process).
 * `readStoredBytes` is asked at scrape time, so the gauge is always the database's figure.
 */
export function createMetrics(readStoredBytes: () => Promise<number>): Metrics {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  return {
    registry,
    httpRequests: new client.Counter({
      name: "stash_http_requests_total",
      help: "HTTP requests by method, route and status",
      labelNames: ["method", "route", "status"],
      registers: [registry],
    }),
    httpDuration: new client.Histogram({
      name: "stash_http_request_duration_seconds",
      help: "HTTP request latency by method and route",
      labelNames: ["method", "route"],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    }),
    uploadBytes: new client.Counter({
      name: "stash_upload_bytes_total",
      help: "Bytes accepted by uploads",
      registers: [registry],
    }),
    storedBytes: new client.Gauge({
      name: "stash_stored_bytes",
      help: "Bytes of stored files across all accounts",
      registers: [registry],
      async collect() {
        this.set(await readStoredBytes());
      },
    }),
  };
}

/** A low-cardinality label for a request path. */
export function routeLabel(pathname: string): string {
  if (pathname.startsWith("/f/")) return "/f/*";
  if (pathname.startsWith("/assets/")) return "/assets/*";
  if (pathname.startsWith("/api/")) {
    const [, , section, rest] = pathname.split("/");
    return `/api/${section}${rest ? "/*" : ""}`;
  }
  if (pathname === "/metrics") return "/metrics";
  return "page";
}
