import type { Db } from "../../../db/index";
import { DomainError } from "~/services/platform/domain-error.server";
import { isUuid } from "~/services/platform/ids.server";

/** The distinct ids, each a member of the team, or a 400 (checked before anything is written). */
export async function teamMemberIds(db: Db, teamId: string, userIds: string[]): Promise<string[]> {
  const wanted = [...new Set(userIds.filter(Boolean))];
  if (wanted.length === 0) return wanted;
  const members = wanted.every(isUuid) ? await db.selectFrom("team_members").select("user_id").where("team_id", "=", teamId).where("user_id", "in", wanted).execute() : [];
  if (members.length !== wanted.length) throw new DomainError("invalid_request", "Choose members of this team");
  return wanted;
}

/**
 * Restricts a case to some members of its team (or, with none, opens it to the whole team). Every
 * id must be a member of the team; anyone else is refused and nothing changes.
 */
export async function setCaseMembers(db: Db, input: { caseId: string; teamId: string; userIds: string[] }): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const wanted = await teamMemberIds(trx, input.teamId, input.userIds);
    await trx.deleteFrom("case_members").where("case_id", "=", input.caseId).execute();
    if (wanted.length) await trx.insertInto("case_members").values(wanted.map((userId) => ({ case_id: input.caseId, user_id: userId }))).execute();
    return wanted.length;
  });
}

/** The user ids a case is restricted to, by case; a case missing from the map is open to the team. */
export async function caseMemberIds(db: Db, caseIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (caseIds.length === 0) return out;
  const rows = await db.selectFrom("case_members").select(["case_id", "user_id"]).where("case_id", "in", caseIds).execute();
  for (const row of rows) out.set(row.case_id, [...(out.get(row.case_id) ?? []), row.user_id]);
  return out;
}
