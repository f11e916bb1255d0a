import { sql } from "kysely";
import type { Db } from "../../../db/index";
import type { AppContext } from "~/services/app-context.server";
import { formatBytes, formatCount, formatDateTime } from "~/lib/format";
import { checkHealth } from "~/services/maintenance/health.server";
import { latestStorageReport, type StorageReport } from "~/services/maintenance/storage-reconcile.server";
import { DAY_MS } from "~/lib/durations";
import type { Tier } from "~/lib/plans";
import type { UserId } from "~/lib/ids";
import { personalTeams } from "~/services/teams/teams.server";

export const ACTIVE_USER_WINDOW_DAYS = 30;
export const RECENT_SERVER_COUNT = 5;

export interface AdminServerRow {
  id: string;
  name: string;
  status: string;
  ownerEmail: string | null;
  ownerName: string | null;
  maxFileSizeMb: number;
  allowedFileTypes: string[];
  endpointUrl: string | null;
  fileCount: number;
  usedBytes: number;
  createdAt: Date;
}

/** Every server, newest first, with its owner and what its files take up. */
export async function listAllServers(db: Db, limit?: number): Promise<AdminServerRow[]> {
  let query = db
    .selectFrom("servers")
    .innerJoin("teams", "teams.id", "servers.team_id")
    .innerJoin("users", "users.id", "teams.owner_user_id")
    .select((eb) => [
      "servers.id",
      "servers.name",
      "servers.status",
      "servers.max_file_size_mb",
      "servers.allowed_file_types",
      "servers.endpoint_url",
      "servers.created_at",
      "users.email",
      "users.display_name",
      eb.selectFrom("files").select(sql<number>`count(*)::int`.as("n")).whereRef("files.server_id", "=", "servers.id").as("file_count"),
      eb
        .selectFrom("files")
        .select(sql<string>`coalesce(sum(size_bytes), 0)`.as("b"))
        .whereRef("files.server_id", "=", "servers.id")
        .as("used_bytes"),
    ])
    .orderBy("servers.created_at", "desc");
  if (limit) query = query.limit(limit);
  const rows = await query.execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    status: r.status,
    ownerEmail: r.email,
    ownerName: r.display_name,
    maxFileSizeMb: r.max_file_size_mb,
    allowedFileTypes: r.allowed_file_types,
    endpointUrl: r.endpoint_url,
    fileCount: Number(r.file_count ?? 0),
    usedBytes: Number(r.used_bytes ?? 0),
    createdAt: r.created_at,
  }));
}

export interface AdminTotals {
  totalServers: number;
  totalUsers: number;
  activeUsers: number;
  totalFiles: number;
  storedBytes: number;
  totalDownloads: number;
  bandwidthBytes: number;
}

export async function getAdminTotals(db: Db, now: Date = new Date()): Promise<AdminTotals> {
  const activeSince = new Date(now.getTime() - ACTIVE_USER_WINDOW_DAYS * DAY_MS);
  const [servers, users, files, usage] = await Promise.all([
    db.selectFrom("servers").select(sql<number>`count(*)::int`.as("n")).executeTakeFirst(),
    db
      .selectFrom("users")
      .select([
        sql<number>`count(*)::int`.as("n"),
        sql<number>`(count(*) FILTER (WHERE last_sign_in_at >= ${activeSince}))::int`.as("active"),
      ])
      .executeTakeFirst(),
    db.selectFrom("files").select([sql<number>`count(*)::int`.as("n"), sql<string>`coalesce(sum(size_bytes), 0)`.as("b")]).executeTakeFirst(),
    db
      .selectFrom("usage_daily")
      .select([sql<string>`coalesce(sum(downloads), 0)`.as("downloads"), sql<string>`coalesce(sum(download_bytes), 0)`.as("bytes")])
      .executeTakeFirst(),
  ]);
  return {
    totalServers: Number(servers?.n ?? 0),
    totalUsers: Number(users?.n ?? 0),
    activeUsers: Number(users?.active ?? 0),
    totalFiles: Number(files?.n ?? 0),
    storedBytes: Number(files?.b ?? 0),
    totalDownloads: Number(usage?.downloads ?? 0),
    bandwidthBytes: Number(usage?.bytes ?? 0),
  };
}

export interface HealthItem {
  name: "Database" | "Storage" | "API" | "Stored files";
  ok: boolean;
  detail: string;
}

/** Where this instance answers itself; a wildcard bind is reached on loopback. */
function selfUrl(config: AppContext["config"]): string {
  const host = ["0.0.0.0", "::", ""].includes(config.HOST) ? "127.0.0.1" : config.HOST;
  return `http://${host.includes(":") ? `[${host}]` : host}:${config.PORT}/api/health`;
}

/** Live checks: the database and blob store directly, the API by requesting /api/health over HTTP. */
export async function getSystemHealth(ctx: AppContext): Promise<HealthItem[]> {
  const started = performance.now();
  const [report, stored, api] = await Promise.all([
    checkHealth(ctx),
    latestStorageReport(ctx.db),
    fetch(selfUrl(ctx.config), { signal: AbortSignal.timeout(3000) })
      .then((res) => ({ ok: res.ok, detail: `HTTP ${res.status} in ${Math.round(performance.now() - started)} ms` }))
      .catch((error: unknown) => ({ ok: false, detail: error instanceof Error ? error.message : String(error) })),
  ]);
  return [
    { name: "Database", ok: report.db.ok, detail: report.db.error ?? `${report.db.kind}, ${report.db.latency_ms} ms` },
    { name: "Storage", ok: report.storage.ok, detail: report.storage.error ?? `${report.storage.kind}, ${report.storage.latency_ms} ms` },
    { name: "API", ok: api.ok, detail: api.detail },
    storedFilesHealth(stored),
  ];
}

/** The last storage reconcile's verdict: every file's bytes found, or how many are lost and what to do. */
function storedFilesHealth(report: StorageReport | undefined): HealthItem {
  if (!report) return { name: "Stored files", ok: true, detail: "Not checked yet; the storage reconciler runs hourly" };
  const when = `checked ${formatDateTime(report.checked_at)}`;
  if (report.files_missing === 0) {
    const found =
      report.files_checked === 0 ? "No files stored yet" : report.files_checked === 1 ? "The 1 stored file has its bytes" : `All ${formatCount(report.files_checked, "file")} have their bytes`;
    return { name: "Stored files", ok: true, detail: `${found} (${when})` };
  }
  const files = `${formatCount(report.files_missing, "file")} ${report.files_missing === 1 ? "has" : "have"}`;
  return {
    name: "Stored files",
    ok: false,
    detail: `${files} lost their bytes (${formatBytes(report.bytes_missing)}, ${when}); run npm run cli -- storage:check --repair`,
  };
}

export interface AdminTeamRow {
  id: string;
  name: string;
  ownerEmail: string | null;
  ownerName: string | null;
  members: number;
  servers: number;
  tier: string;
  usedBytes: number;
  createdAt: Date;
}

/** Every team, newest first, with its owner, size, plan and stored bytes (the admin Teams screen). */
export async function listTeamsForAdmin(db: Db): Promise<AdminTeamRow[]> {
  const rows = await db
    .selectFrom("teams")
    .innerJoin("users", "users.id", "teams.owner_user_id")
    .leftJoin("subscriptions", "subscriptions.team_id", "teams.id")
    .leftJoin("account_usage", "account_usage.team_id", "teams.id")
    .select((eb) => [
      "teams.id",
      "teams.name",
      "teams.created_at",
      "users.email",
      "users.display_name",
      "subscriptions.tier",
      "account_usage.used_bytes",
      eb.selectFrom("team_members").select(sql<number>`count(*)::int`.as("n")).whereRef("team_members.team_id", "=", "teams.id").as("members"),
      eb.selectFrom("servers").select(sql<number>`count(*)::int`.as("n")).whereRef("servers.team_id", "=", "teams.id").as("servers"),
    ])
    .orderBy("teams.created_at", "desc")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    ownerEmail: r.email,
    ownerName: r.display_name,
    members: Number(r.members ?? 0),
    servers: Number(r.servers ?? 0),
    tier: r.tier ?? "free",
    usedBytes: Number(r.used_bytes ?? 0),
    createdAt: r.created_at,
  }));
}

export interface AdminPlanView {
  tier: Tier;
  addonGb: number;
}

/** Each person's own team's plan and hand-granted storage, by the person's id, for the admin's user list. */
export async function listPlansForAdmin(db: Db): Promise<Record<UserId, AdminPlanView>> {
  const rows = await db
    .selectFrom(personalTeams(db).as("p"))
    .leftJoin("subscriptions", "subscriptions.team_id", "p.team_id")
    .select((eb) => [
      "p.owner_user_id",
      "subscriptions.tier",
      eb
        .selectFrom("storage_addons")
        .select(sql<number>`coalesce(sum(gb), 0)::int`.as("gb"))
        .whereRef("storage_addons.team_id", "=", "p.team_id")
        .where("storage_addons.stripe_reference", "is", null)
        .as("addon_gb"),
    ])
    .execute();
  return Object.fromEntries(rows.map((r) => [r.owner_user_id, { tier: r.tier ?? "free", addonGb: Number(r.addon_gb ?? 0) }]));
}
