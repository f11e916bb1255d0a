import type { Db } from "../../../db/index";
import { PLANS, type Tier } from "~/lib/plans";
import { DomainError } from "~/services/platform/domain-error.server";
import { isUuid } from "~/services/platform/ids.server";
import type { ServerId, TeamId } from "~/lib/ids";

export const DEFAULT_DATASET = "default";
export const DISCORD_DATASET = "discord";
const DATASET_NAME = /^[a-z0-9][a-z0-9_-]{0,39}$/;

/** A dataset name as senders give it (header, field, label): lower-cased, or a 400 that says what is allowed. */
export function parseDatasetName(value: unknown): string {
  if (value === undefined || value === null || value === "") return DEFAULT_DATASET;
  const name = String(value).trim().toLowerCase();
  if (!DATASET_NAME.test(name)) throw new DomainError("invalid_request", "dataset must be 1-40 characters: letters, digits, - and _ (starting with a letter or digit)");
  return name;
}

export interface LogDataset {
  id: string;
  name: string;
  retentionDays: number;
}

/** The server's dataset of that name, made on first use with the plan's retention. */
export async function findOrCreateDataset(db: Db, serverId: ServerId, name: string, tier: Tier): Promise<LogDataset> {
  const existing = await db.selectFrom("log_datasets").select(["id", "name", "retention_days"]).where("server_id", "=", serverId).where("name", "=", name).executeTakeFirst();
  const row =
    existing ??
    (await db
      .insertInto("log_datasets")
      .values({ server_id: serverId, name, retention_days: PLANS[tier].logRetentionDays })
      .onConflict((oc) => oc.columns(["server_id", "name"]).doUpdateSet({ name }))
      .returning(["id", "name", "retention_days"])
      .executeTakeFirstOrThrow());
  return { id: row.id, name: row.name, retentionDays: row.retention_days };
}

/** How long an instance trusts a dataset id it looked up (datasets only go away with their server). */
const DATASET_CACHE_MS = 60_000;
const datasetCache = new WeakMap<Db, Map<string, { id: string; at: number }>>();

/** findOrCreateDataset's id, remembered for a minute: the ingest path's hottest lookup. */
export async function datasetIdFor(db: Db, serverId: ServerId, name: string, tier: Tier): Promise<string> {
  let cache = datasetCache.get(db);
  if (!cache) datasetCache.set(db, (cache = new Map()));
  const key = `${serverId}|${name}`;
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < DATASET_CACHE_MS) return hit.id;
  const { id } = await findOrCreateDataset(db, serverId, name, tier);
  if (cache.size > 10_000) cache.clear();
  cache.set(key, { id, at: Date.now() });
  return id;
}

export interface DatasetSummary extends LogDataset {
  serverId: ServerId;
  serverName: string;
}

/** Every dataset of a team's servers, for the search filters. */
export function listDatasetsForTeam(db: Db, teamId: TeamId): Promise<DatasetSummary[]> {
  return db
    .selectFrom("log_datasets as d")
    .innerJoin("servers as s", "s.id", "d.server_id")
    .select(["d.id", "d.name", "d.retention_days as retentionDays", "s.id as serverId", "s.name as serverName"])
    .where("s.team_id", "=", teamId)
    .orderBy("s.name")
    .orderBy("d.name")
    .execute();
}

/** The ids of a team's datasets, as a subquery for filters that must stay within the team. */
export function teamDatasetIds(db: Db, teamId: TeamId) {
  return db.selectFrom("log_datasets as d").innerJoin("servers as s", "s.id", "d.server_id").select("d.id").where("s.team_id", "=", teamId);
}

/** A 404 unless `datasetId` names one of the team's datasets (any other text included). */
export async function assertTeamDataset(db: Db, teamId: TeamId, datasetId: string): Promise<void> {
  const found = isUuid(datasetId) ? await teamDatasetIds(db, teamId).where("d.id", "=", datasetId).executeTakeFirst() : undefined;
  if (!found) throw new DomainError("not_found", "Dataset not found");
}

/** Sets a dataset's retention, never past what the team's plan allows. */
export async function setDatasetRetention(db: Db, input: { datasetId: string; teamId: TeamId; days: number; tier: Tier }): Promise<void> {
  const cap = PLANS[input.tier].logRetentionDays;
  if (!Number.isInteger(input.days) || input.days < 1 || input.days > cap) {
    throw new DomainError("invalid_request", `Retention must be a whole number of days from 1 to ${cap} on the ${PLANS[input.tier].name} plan`);
  }
  await assertTeamDataset(db, input.teamId, input.datasetId);
  await db.updateTable("log_datasets").set({ retention_days: input.days }).where("id", "=", input.datasetId).execute();
}
