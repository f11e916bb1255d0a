import client from "prom-client";

export interface Metrics {
  registry: client.Registry;
  httpRequests: client.Counter<"method" | "route" | "status">;
  httpDuration: client.Histogram<"method" | "route">;
  uploadBytes: client.Counter;
  storedBytes: client.Gauge;
  filesWithoutBlob: client.Gauge;
  imageJobs: client.Gauge<"measure">;
  uploadBuffers: client.Gauge<"measure">;
}

/** Figures read from the database at scrape time, so every instance reports the same. */
export interface MetricSources {
  storedBytes(): Promise<number>;
  /** Files whose bytes the last storage reconcile did not find. */
  filesWithoutBlob(): Promise<number>;
  /** The process's image limiter (media/image-slots.server.ts). */
  imageSlots(): { slots: number; peak: number; finished: number };
  /** The process's pool of buffers for uploads read whole (uploads/upload-buffers.server.ts). */
  uploadBuffers(): { inUse: number; kept: number; made: number };
}

/**
 * One registry per app context (tests run several servers in one process).
 * The gauges ask `sources` at scrape time, so they are always the database's figures.
 */
export function createMetrics(sources: MetricSources): Metrics {
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
        this.set(await sources.storedBytes());
      },
    }),
    imageJobs: new client.Gauge({
      name: "stash_image_jobs",
      help: "The process's image limiter: slots (its bound), peak (most jobs run at once) and finished (jobs run)",
      labelNames: ["measure"],
      registers: [registry],
      collect() {
        const stats = sources.imageSlots();
        for (const measure of ["slots", "peak", "finished"] as const) this.set({ measure }, stats[measure]);
      },
    }),
    uploadBuffers: new client.Gauge({
      name: "stash_upload_buffers",
      help: "The process's buffers for uploads read whole: in_use (holding an upload now), kept (free for the next) and made (allocated since start)",
      labelNames: ["measure"],
      registers: [registry],
      collect() {
        const stats = sources.uploadBuffers();
        this.set({ measure: "in_use" }, stats.inUse);
        this.set({ measure: "kept" }, stats.kept);
        this.set({ measure: "made" }, stats.made);
      },
    }),
    filesWithoutBlob: new client.Gauge({
      name: "stash_files_without_blob",
      help: "Files whose bytes the last storage reconcile did not find in the blob store (repair: npm run cli -- storage:check --repair)",
      registers: [registry],
      async collect() {
        this.set(await sources.filesWithoutBlob());
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
