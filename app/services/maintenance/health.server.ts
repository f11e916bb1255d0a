import { sql } from "kysely";
import type { AppContext } from "~/services/app-context.server";
import { pingClamd } from "~/services/uploads/malware-scan.server";

export interface HealthReport {
  status: "ok" | "degraded";
  /** `status` is "down" while the database cannot be reached; requests then answer 503 database_unavailable. */
  db: { ok: boolean; status: "up" | "down"; kind: "PGlite" | "PostgreSQL"; latency_ms: number; error?: string };
  storage: { ok: boolean; kind: "disk" | "s3"; latency_ms: number; error?: string };
  /** Present when CLAMAV_URL is set; while it is down uploads are refused (503 scanner_unavailable). */
  scanner?: { ok: boolean; kind: "clamd"; latency_ms: number; error?: string };
  version: string;
  uptime_s: number;
}

async function timed(check: () => Promise<unknown>): Promise<{ ok: boolean; latency_ms: number; error?: string }> {
  const started = performance.now();
  try {
    await check();
    return { ok: true, latency_ms: Math.round(performance.now() - started) };
  } catch (error) {
    return {
      ok: false,
      latency_ms: Math.round(performance.now() - started),
      error: error instanceof Error ? error.message : String(error),
    };
  }
}

export async function checkHealth(ctx: Pick<AppContext, "db" | "dbKind" | "blobs" | "version" | "startedAt" | "config">): Promise<HealthReport> {
  const clamavUrl = ctx.config.CLAMAV_URL;
  const [db, storage, scanner] = await Promise.all([
    timed(() => sql`SELECT 1`.execute(ctx.db)),
    timed(() => ctx.blobs.check()),
    clamavUrl ? timed(() => pingClamd(clamavUrl)) : Promise.resolve(undefined),
  ]);
  return {
    status: db.ok && storage.ok && (scanner?.ok ?? true) ? "ok" : "degraded",
    db: { ...db, status: db.ok ? "up" : "down", kind: ctx.dbKind === "pglite" ? "PGlite" : "PostgreSQL" },
    storage: { ...storage, kind: ctx.blobs.kind },
    ...(scanner ? { scanner: { ...scanner, kind: "clamd" as const } } : {}),
    version: ctx.version,
    uptime_s: Math.round((Date.now() - ctx.startedAt) / 1000),
  };
}
