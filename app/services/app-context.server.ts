import path from "node:path";
import { sql } from "kysely";
import { version } from "../../package.json";
import { createDb, type Db, type DbKind } from "../../db/index";
import { migrateToLatest } from "../../db/migrate";
import { createBlobStore, type BlobStore } from "../../storage/index";
import type { Config } from "~/services/platform/env.server";
import { createLogger, type Logger } from "~/services/platform/logger.server";
import { createMetrics, type Metrics } from "~/services/platform/metrics.server";
import { ApiCallLog } from "~/services/api-keys/api-call-log.server";
import { LogVolume } from "~/services/logs/log-volume.server";
import { KnownCredentials } from "~/services/api-keys/known-credentials.server";
import { RateLimits } from "~/services/platform/rate-limits.server";
import { createOutboundFetch, originKey, type OutboundFetch } from "~/services/platform/outbound-fetch.server";
import { latestStorageReport } from "~/services/maintenance/storage-reconcile.server";
import { imageSlotStats } from "~/services/media/image-slots.server";
import { uploadBuffers } from "~/services/uploads/upload-buffers.server";
import { InDoubtCommits } from "~/services/uploads/in-doubt-commits.server";

/**
 * Everything a request needs, made once per process by server.ts and handed to every loader
 * and action through React Router's load context. Nothing in app/ opens its own connections.
 */
export interface AppContext {
  config: Config;
  db: Db;
  dbKind: DbKind;
  blobs: BlobStore;
  logger: Logger;
  metrics: Metrics;
  rateLimits: RateLimits;
  /** Active API keys and webhook secrets, so a blocked address can still use a valid one (api-auth). */
  knownCredentials: KnownCredentials;
  /** Audit rows, call counters and key last-use of script API calls, written once a second. */
  apiCalls: ApiCallLog;
  /** Log entries counted toward the plan's monthly volume, written once a second. */
  logVolume: LogVolume;
  /** Uploads whose commit lost its connection unanswered: their blobs go once the database says the rows do not exist. */
  inDoubtCommits: InDoubtCommits;
  /** The only way to fetch a URL a user gave (imports, webhook deliveries): named hosts, no private addresses. */
  outbound: OutboundFetch;
  startedAt: number;
  version: string;
}

export interface CreateAppContextOptions {
  /** Keeps PGlite in memory instead of under DATA_DIR (tests). */
  inMemoryDb?: boolean;
  logger?: Logger;
}


export async function createAppContext(config: Config, options: CreateAppContextOptions = {}): Promise<AppContext & { close(): Promise<void> }> {
  const logger = options.logger ?? createLogger(config.LOG_LEVEL);
  const handle = await createDb({
    databaseUrl: config.DATABASE_URL,
    pgliteDir: options.inMemoryDb ? undefined : path.join(config.dataDir, "db"),
    poolMax: config.DATABASE_POOL_MAX,
    // The message only: pg attaches the whole client to the error.
    onConnectionError: (error) => logger.warn({ error: error.message }, "idle database connection failed; the pool replaces it"),
  });
  try {
    const { applied } = await migrateToLatest(handle.db, { log: logger, lockTimeoutMs: config.STARTUP_LOCK_TIMEOUT_S * 1000 });
    if (applied.length) logger.info({ applied }, "database migrated");
  } catch (error) {
    await handle.close();
    throw error;
  }
  const blobs = createBlobStore(config);
  const metrics = createMetrics({
    async storedBytes() {
      const row = await sql<{ total: number | null }>`SELECT sum(used_bytes)::bigint AS total FROM account_usage`.execute(handle.db);
      return Number(row.rows[0]?.total ?? 0);
    },
    imageSlots: imageSlotStats,
    uploadBuffers: () => uploadBuffers.stats(),
    async filesWithoutBlob() {
      return (await latestStorageReport(handle.db))?.files_missing ?? 0;
    },
  });
  const rateLimits = new RateLimits(config.REDIS_URL);
  const apiCalls = new ApiCallLog(handle.db, logger);
  const logVolume = new LogVolume(handle.db, logger);
  const inDoubtCommits = new InDoubtCommits(handle.db, blobs, logger);
  const outbound = createOutboundFetch({
    allowPrivateNetworks: config.OUTBOUND_ALLOW_PRIVATE_NETWORKS,
    trustedOrigins: [config.DISCORD_API_BASE, config.DISCORD_CDN_BASE, config.FIVEMANAGE_API_BASE].filter((base): base is string => Boolean(base)).map((base) => originKey(new URL(base))),
  });
  return {
    config,
    db: handle.db,
    dbKind: handle.kind,
    blobs,
    logger,
    metrics,
    rateLimits,
    knownCredentials: new KnownCredentials(handle.db),
    apiCalls,
    logVolume,
    inDoubtCommits,
    outbound,
    startedAt: Date.now(),
    version,
    async close() {
      inDoubtCommits.close();
      await apiCalls.close();
      await logVolume.close();
      await rateLimits.close();
      await outbound.close();
      await handle.close();
    },
  };
}
