import { describe, expect, it } from "vitest";
import type { FileId, ServerId, TeamId, UserId } from "../../app/lib/ids.ts";
import type { getAccountQuota } from "../../app/services/billing/quota.server.ts";
import type { leaveTeam } from "../../app/services/teams/team-members.server.ts";
import { parseId, parseIds, parseServerId } from "../../app/services/platform/ids.server.ts";

const PERSON = "5b0e6c43-5a0e-4c43-9f39-1d6f3e0b7a11";
const TEAM = "0d3c2b1a-7e6f-4a5b-8c9d-0e1f2a3b4c5d";

/** What a service that acts for a team takes, and what one that acts for a person takes. */
type QuotaTeam = Parameters<typeof getAccountQuota>[1];
type Leaving = Parameters<typeof leaveTeam>[1];

describe("distinct id types", () => {
  it("a person's id is never accepted where a team's id is expected, nor the other way round", () => {
    const userId = parseId<UserId>(PERSON)!;
    const teamId = parseId<TeamId>(TEAM)!;
    // `npm test` runs `tsc --noEmit` first: each line below fails the build the day it compiles.
    // @ts-expect-error a user id is not a team id
    const quotaOfPerson: QuotaTeam = userId;
    // @ts-expect-error nor is a team id a user id
    const leaving: Leaving = { teamId, userId: teamId };
    // @ts-expect-error nor is any string from a URL or a form
    const unparsed: QuotaTeam = TEAM;
    const quotaOfTeam: QuotaTeam = teamId;
    expect([quotaOfPerson, leaving.userId, unparsed, quotaOfTeam]).toEqual([PERSON, TEAM, TEAM, TEAM]);
  });

  it("parses ids from URLs and forms, and reads anything else as no id (a 404, never SQL)", () => {
    expect(parseId<FileId>(TEAM)).toBe(TEAM);
    for (const value of ["not-a-uuid", "", null, undefined, 42, `${TEAM} `, `${TEAM}x`]) expect(parseId<FileId>(value)).toBeUndefined();
    expect(parseIds<FileId>([TEAM, "junk", TEAM, PERSON])).toEqual([TEAM, PERSON]);
    const serverId: ServerId | undefined = parseServerId("k3x9q2m7a1b0");
    expect(serverId).toBe("k3x9q2m7a1b0");
    for (const value of ["../etc", "a b", "", "x".repeat(65), null]) expect(parseServerId(value)).toBeUndefined();
  });
});
