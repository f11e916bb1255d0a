import type { Db } from "../../../db/index";
import { DomainError } from "~/services/platform/domain-error.server";
import { parseIds } from "~/services/platform/ids.server";
import type { CaseId, TeamId, UserId } from "~/lib/ids";

/** The people a form chose, each once and each a member of the team, or a 400 (checked before anything is written). */
export async function teamMemberIds(db: Db, teamId: TeamId, chosen: readonly string[]): Promise<UserId[]> {
  const wanted = new Set(chosen.filter(Boolean));
  const ids = parseIds<UserId>([...wanted]);
  if (wanted.size === 0) return ids;
  const members = ids.length === wanted.size ? await db.selectFrom("team_members").select("user_id").where("team_id", "=", teamId).where("user_id", "in", ids).execute() : [];
  if (members.length !== wanted.size) throw new DomainError("invalid_request", "Choose members of this team");
  return ids;
}

/**
 * Restricts a case to some members of its team (or, with none, opens it to the whole team). Every
 * id must be a member of the team; anyone else is refused and nothing changes.
 */
export async function setCaseMembers(db: Db, input: { caseId: CaseId; teamId: TeamId; userIds: readonly string[] }): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const wanted = await teamMemberIds(trx, input.teamId, input.userIds);
    await trx.deleteFrom("case_members").where("case_id", "=", input.caseId).execute();
    if (wanted.length) await trx.insertInto("case_members").values(wanted.map((userId) => ({ case_id: input.caseId, user_id: userId }))).execute();
    return wanted.length;
  });
}

/** The user ids a case is restricted to, by case; a case missing from the map is open to the team. */
export async function caseMemberIds(db: Db, caseIds: CaseId[]): Promise<Map<CaseId, UserId[]>> {
  const out = new Map<CaseId, UserId[]>();
  if (caseIds.length === 0) return out;
  const rows = await db.selectFrom("case_members").select(["case_id", "user_id"]).where("case_id", "in", caseIds).execute();
  for (const row of rows) out.set(row.case_id, [...(out.get(row.case_id) ?? []), row.user_id]);
  return out;
}
