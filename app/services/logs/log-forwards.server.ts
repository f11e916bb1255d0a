import type { Db } from "../../../db/index";
import type { Logger } from "~/services/platform/logger.server";
import { isUuid } from "~/services/platform/ids.server";
import { postToDiscord } from "~/services/logs/discord-delivery.server";
import { assertTeamDataset, teamDatasetIds } from "~/services/logs/log-datasets.server";
import type { LogInput } from "~/services/logs/log-parsing.server";
import { entryMatches, type LogRule } from "~/services/logs/log-rules.server";
import type { TeamId } from "~/lib/ids";

/** Discord takes at most 10 embeds per message. */
const EMBEDS_PER_MESSAGE = 10;
/** A bound on one delivery round, so a huge backlog is worked through over several rounds. */
const MESSAGES_PER_ROUND = 50;
const MAX_BACKOFF_MS = 10 * 60_000;
/** After a refusal that retrying cannot fix (a deleted webhook), try again this much later. */
const FAILED_PAUSE_MS = 60 * 60_000;

const LEVEL_COLOURS: Record<string, number> = { trace: 0x95a5a6, debug: 0x95a5a6, info: 0x3498db, warn: 0xf1c40f, error: 0xe74c3c, fatal: 0x992d22 };

export interface ForwardView {
  id: string;
  dataset: string;
  serverName: string;
  minLevel: string;
  resource: string | null;
  contains: string | null;
  waiting: number;
  lastError: string | null;
}

export async function createLogForward(db: Db, input: { teamId: TeamId; datasetId: string; webhookUrl: string; rule: LogRule }): Promise<void> {
  await assertTeamDataset(db, input.teamId, input.datasetId);
  await db
    .insertInto("log_forwards")
    .values({ dataset_id: input.datasetId, webhook_url: input.webhookUrl, min_level: input.rule.minLevel, resource: input.rule.resource, contains: input.rule.contains })
    .execute();
  dropForwardsCache(db);
}

/** Whether `id` names a forward of one of the team's datasets. */
export async function hasLogForward(db: Db, teamId: TeamId, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  return Boolean(await db.selectFrom("log_forwards").select("id").where("id", "=", id).where("dataset_id", "in", teamDatasetIds(db, teamId)).executeTakeFirst());
}

export async function deleteLogForward(db: Db, teamId: TeamId, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const result = await db
    .deleteFrom("log_forwards")
    .where("id", "=", id)
    .where("dataset_id", "in", teamDatasetIds(db, teamId))
    .executeTakeFirst();
  dropForwardsCache(db);
  return Number(result.numDeletedRows) > 0;
}

export function listLogForwards(db: Db, teamId: TeamId): Promise<ForwardView[]> {
  return db
    .selectFrom("log_forwards as f")
    .innerJoin("log_datasets as d", "d.id", "f.dataset_id")
    .innerJoin("servers as s", "s.id", "d.server_id")
    .select((eb) => [
      "f.id",
      "d.name as dataset",
      "s.name as serverName",
      "f.min_level as minLevel",
      "f.resource",
      "f.contains",
      "f.last_error as lastError",
      eb.selectFrom("log_forward_queue as q").select(eb.fn.countAll<number>().as("n")).whereRef("q.forward_id", "=", "f.id").as("waiting"),
    ])
    .where("s.team_id", "=", teamId)
    .orderBy("f.created_at")
    .execute()
    .then((rows) => rows.map((r) => ({ ...r, waiting: Number(r.waiting ?? 0) })));
}

type ForwardRule = { id: string; dataset_id: string; min_level: string; resource: string | null; contains: string | null };

/**
 * How long an instance reuses the forwards it read for a dataset. Changes made on this instance
 * apply at once (the cache is dropped); another instance's within these seconds.
 */
const FORWARDS_CACHE_MS = 5_000;
const forwardsCache = new WeakMap<Db, Map<string, { forwards: ForwardRule[]; at: number }>>();

function dropForwardsCache(db: Db): void {
  forwardsCache.delete(db);
}

/** The forwards of these datasets, read before an ingest's statement (cached for a few seconds). */
export async function forwardsOfDatasets(db: Db, datasetIds: string[]): Promise<ForwardRule[]> {
  let cache = forwardsCache.get(db);
  if (!cache) forwardsCache.set(db, (cache = new Map()));
  const now = Date.now();
  const missing = datasetIds.filter((id) => !(now - (cache.get(id)?.at ?? 0) < FORWARDS_CACHE_MS));
  if (missing.length) {
    const rows = await db.selectFrom("log_forwards").select(["id", "dataset_id", "min_level", "resource", "contains"]).where("dataset_id", "in", missing).execute();
    for (const id of missing) cache.set(id, { forwards: rows.filter((r) => r.dataset_id === id), at: now });
  }
  return datasetIds.flatMap((id) => cache.get(id)?.forwards ?? []);
}

/**
 * Puts the entries each forward wants into its outbox, inside the ingest's transaction: once the
 * sender has its 200, the entry will reach Discord however long Discord makes us wait.
 */
export async function queueForwards(trx: Db, forwards: ForwardRule[], entries: Array<{ datasetId: string; dataset: string; entry: LogInput }>): Promise<number> {
  const rows = forwards.flatMap((forward) =>
    entries
      .filter(({ datasetId, entry }) => datasetId === forward.dataset_id && entryMatches(forward, entry))
      .map(({ dataset, entry }) => ({
        forward_id: forward.id,
        entry: JSON.stringify({ ts: entry.ts.toISOString(), level: entry.level, resource: entry.resource, message: entry.message.slice(0, 3500), dataset }),
      })),
  );
  if (rows.length) await trx.insertInto("log_forward_queue").values(rows).execute();
  return rows.length;
}

export interface QueuedEntry {
  ts: string;
  level: string;
  resource: string | null;
  message: string;
  dataset: string;
}

export function embedOf(entry: QueuedEntry) {
  return {
    title: `${entry.level.toUpperCase()}${entry.resource ? ` · ${entry.resource}` : ""}`.slice(0, 256),
    description: entry.message.slice(0, 4000),
    color: LEVEL_COLOURS[entry.level] ?? LEVEL_COLOURS.info,
    timestamp: entry.ts,
    footer: { text: `Stash · ${entry.dataset}` },
  };
}

/**
 * One delivery round: each forward whose wait is over sends its oldest entries, up to 10 embeds per
 * message, in order. Rows leave the outbox only when Discord confirmed the message; a 429 sets the
 * forward's wait to Discord's `retry_after` and keeps every row; a 5xx or no answer backs off
 * exponentially. Forwards are locked while sending, so instances never send the same rows twice.
 */
export async function deliverLogForwards(ctx: { db: Db; logger: Logger }, now: Date = new Date()): Promise<{ sent: number; rateLimited: number }> {
  const due = await ctx.db
    .selectFrom("log_forwards as f")
    .select("f.id")
    .where((eb) => eb.or([eb("f.next_attempt_at", "is", null), eb("f.next_attempt_at", "<=", now)]))
    .where((eb) => eb.exists(eb.selectFrom("log_forward_queue as q").select("q.id").whereRef("q.forward_id", "=", "f.id")))
    .execute();
  let sent = 0;
  let rateLimited = 0;
  let messages = 0;
  for (const { id } of due) {
    if (messages >= MESSAGES_PER_ROUND) break;
    await ctx.db.transaction().execute(async (trx) => {
      const forward = await trx.selectFrom("log_forwards").select(["id", "webhook_url", "attempts", "next_attempt_at"]).where("id", "=", id).forUpdate().skipLocked().executeTakeFirst();
      if (!forward || (forward.next_attempt_at && forward.next_attempt_at > now)) return;
      for (;;) {
        if (messages >= MESSAGES_PER_ROUND) return;
        const batch = await trx.selectFrom("log_forward_queue").select(["id", "entry"]).where("forward_id", "=", id).orderBy("id").limit(EMBEDS_PER_MESSAGE).execute();
        if (batch.length === 0) {
          await trx.updateTable("log_forwards").set({ attempts: 0, last_error: null, next_attempt_at: null }).where("id", "=", id).execute();
          return;
        }
        messages += 1;
        const answer = await postToDiscord(forward.webhook_url, { username: "Stash logs", embeds: batch.map((row) => embedOf(row.entry as unknown as QueuedEntry)) });
        if (answer.kind === "sent") {
          await trx.deleteFrom("log_forward_queue").where("id", "in", batch.map((row) => row.id)).execute();
          sent += batch.length;
          if (answer.waitMs > 0) {
            await trx.updateTable("log_forwards").set({ attempts: 0, last_error: null, next_attempt_at: new Date(Date.now() + answer.waitMs) }).where("id", "=", id).execute();
            return;
          }
          continue;
        }
        if (answer.kind === "rate_limited") rateLimited += 1;
        const attempts = forward.attempts + 1;
        const waitMs = answer.kind === "rate_limited" ? answer.waitMs : answer.kind === "retry" ? Math.min(MAX_BACKOFF_MS, 1000 * 2 ** attempts) : FAILED_PAUSE_MS;
        const lastError = answer.kind === "rate_limited" ? null : answer.error;
        if (lastError) ctx.logger.warn({ forward: id, error: lastError }, "log forward not delivered; kept for a retry");
        await trx
          .updateTable("log_forwards")
          .set({ attempts: answer.kind === "rate_limited" ? forward.attempts : attempts, last_error: lastError, next_attempt_at: new Date(Date.now() + waitMs) })
          .where("id", "=", id)
          .execute();
        return;
      }
    });
  }
  return { sent, rateLimited };
}
