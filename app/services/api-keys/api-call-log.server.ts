import { sql } from "kysely";
import type { Db } from "../../../db/index";
import type { ApiCaller } from "~/services/api-keys/key-auth.server";
import { bumpUsage, usageDay, type ApiCallRecord } from "~/services/api-keys/key-usage.server";
import { touchApiKey } from "~/services/api-keys/keys.server";
import type { Logger } from "~/services/platform/logger.server";
import { PeriodicFlush } from "~/services/platform/periodic-flush.server";
import type { ApiKeyId, ServerId } from "~/lib/ids";

/** Often enough that the portal's key list and audit trail look live; rarely enough to cost nothing per call. */
const FLUSH_INTERVAL_MS = 1_000;

interface PendingCall {
  caller: ApiCaller;
  call: ApiCallRecord;
  at: Date;
}

/** One transaction for a batch: the audit rows (of audited calls), one counter upsert per server and day, the keys' daily calls, one touch per key. */
async function writeCalls(db: Db, batch: PendingCall[]): Promise<void> {
  const counters = new Map<string, { serverId: ServerId; at: Date; count: number }>();
  const keyCounters = new Map<string, { api_key_id: ApiKeyId; day: string; calls: number }>();
  const keys = new Map<ApiKeyId, { lastUsedAt: Date | null; at: Date }>();
  for (const { caller, at } of batch) {
    const day = usageDay(at);
    const counted = counters.get(`${caller.serverId}|${day}`);
    if (counted) counted.count += 1;
    else counters.set(`${caller.serverId}|${day}`, { serverId: caller.serverId, at, count: 1 });
    const keyCounted = keyCounters.get(`${caller.keyId}|${day}`);
    if (keyCounted) keyCounted.calls += 1;
    else keyCounters.set(`${caller.keyId}|${day}`, { api_key_id: caller.keyId, day, calls: 1 });
    const key = keys.get(caller.keyId);
    if (!key || key.at < at) keys.set(caller.keyId, { lastUsedAt: caller.lastUsedAt, at });
  }
  const audited = batch.filter(({ call }) => call.audited !== false);
  await db.transaction().execute(async (trx) => {
    if (audited.length) await trx
      .insertInto("audit_logs")
      .values(
        audited.map(({ caller, call, at }) => ({
          team_id: caller.teamId,
          server_id: caller.serverId,
          api_key_id: caller.keyId,
          action: call.action,
          target: call.target ?? null,
          ip: call.ip,
          detail: JSON.stringify({ status: call.status, ...call.detail }),
          created_at: at,
        })),
      )
      .execute();
    for (const { serverId, at, count } of counters.values()) await bumpUsage(trx, serverId, { api_calls: count }, at);
    await trx
      .insertInto("api_key_usage_daily")
      .values([...keyCounters.values()])
      .onConflict((oc) => oc.columns(["api_key_id", "day"]).doUpdateSet({ calls: sql`api_key_usage_daily.calls + excluded.calls` }))
      .execute();
    for (const [keyId, { lastUsedAt, at }] of keys) await touchApiKey(trx, keyId, lastUsedAt, at);
  });
}

/**
 * The audit row, the api_calls counter and the key's last use of every key-authenticated call,
 * gathered in memory and written once a second in one transaction, and on shutdown. Written with
 * each call they were a second commit on every upload, the script API's hottest path. A crash
 * loses at most the last second of these records, never an upload.
 */
export class ApiCallLog extends PeriodicFlush {
  private pending: PendingCall[] = [];

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    intervalMs = FLUSH_INTERVAL_MS,
  ) {
    super(intervalMs);
  }

  record(caller: ApiCaller, call: ApiCallRecord, at = new Date()): void {
    this.pending.push({ caller, call, at });
  }

  protected async write(): Promise<void> {
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    try {
      await writeCalls(this.db, batch);
    } catch {
      // A call of a server or key deleted since fails the batch's foreign keys: the others still count.
      for (const one of batch) {
        await writeCalls(this.db, [one]).catch((error) => this.logger.warn({ err: error, keyId: one.caller.keyId }, "could not record an API call"));
      }
    }
  }
}
