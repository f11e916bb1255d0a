import type { Db } from "../../../db/index";
import { DomainError } from "~/services/platform/domain-error.server";
import { isUuid } from "~/services/platform/ids.server";
import { logFiltersOf } from "~/services/logs/log-search.server";
import type { TeamId, UserId } from "~/lib/ids";

const FILTER_PARAMS = ["dataset", "level", "resource", "q", "from", "to", "meta"] as const;

/** The filter part of a Logs query string (no cursor), checked the way a search checks it. */
export function savedQueryOf(search: string): string {
  const query = new URLSearchParams(search);
  logFiltersOf(query);
  const kept = new URLSearchParams();
  for (const name of FILTER_PARAMS) for (const value of query.getAll(name)) if (value) kept.append(name, value);
  if (![...kept.keys()].length) throw new DomainError("invalid_request", "Set at least one filter before saving a search");
  return kept.toString();
}

export async function saveLogQuery(db: Db, input: { teamId: TeamId; userId: UserId; name: unknown; search: string }): Promise<void> {
  const name = typeof input.name === "string" ? input.name.trim() : "";
  if (!name || name.length > 60) throw new DomainError("invalid_request", "Name the search (at most 60 characters)");
  const query = savedQueryOf(input.search);
  await db
    .insertInto("log_saved_queries")
    .values({ team_id: input.teamId, name, query, created_by_user_id: input.userId })
    .onConflict((oc) => oc.columns(["team_id", "name"]).doUpdateSet({ query }))
    .execute();
}

export function listSavedLogQueries(db: Db, teamId: TeamId): Promise<Array<{ id: string; name: string; query: string }>> {
  return db.selectFrom("log_saved_queries").select(["id", "name", "query"]).where("team_id", "=", teamId).orderBy("name").execute();
}

export async function deleteSavedLogQuery(db: Db, teamId: TeamId, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const result = await db.deleteFrom("log_saved_queries").where("team_id", "=", teamId).where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
