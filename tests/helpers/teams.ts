/**
 * Teams as a staff uses them: a team made through /team (nobody's personal team, so its id is no
 * person's id), people invited by e-mail who accept through the mailed link, servers and keys made
 * through the portal's own endpoints.
 */
import { expect } from "vitest";
import type { ServerId, TeamId, UserId } from "../../app/lib/ids.ts";
import { postForm, readToast, signUpAndSignIn, uniqueEmail, type SignedInUser } from "./auth.ts";
import { waitForOutboxMail } from "./mail.ts";
import type { TestServer } from "./server.ts";

/** The invitation link in the newest mail to `email`. */
export async function invitationLink(server: TestServer, email: string): Promise<string> {
  const mail = await waitForOutboxMail(server.dataDir, email, "Join ");
  const match = /https?:\/\/[^\s"<>]+\/invitations\/[0-9A-Za-z]+/.exec(mail.body);
  if (!match) throw new Error(`no invitation link in:\n${mail.body}`);
  return new URL(match[0]).pathname;
}

export async function invitationIdOf(server: TestServer, email: string): Promise<string> {
  const row = await server.ctx.db.selectFrom("team_invitations").select("id").where("email", "=", email).orderBy("created_at", "desc").executeTakeFirstOrThrow();
  return row.id;
}

/** Invites a new person through the /team form as `by` (into `by`'s current team); they sign up and accept through the link. */
export async function inviteAndJoin(server: TestServer, by: SignedInUser, role: string, fields: Record<string, string | string[]> = {}): Promise<SignedInUser> {
  const email = uniqueEmail(role);
  const invited = await postForm(server, "/team", { intent: "invite", email, role, ...fields }, { cookie: by.cookie });
  expect(invited.status).toBe(200);
  expect(readToast(invited)).toMatchObject({ title: "Invitation sent" });
  const link = await invitationLink(server, email);
  const person = await signUpAndSignIn(server, { email, displayName: `The ${role}` });
  const page = await server.request(link, { headers: { Cookie: person.cookie } });
  expect(page.status).toBe(200);
  expect(await page.text()).toContain("Accept");
  const accepted = await postForm(server, link, { invitationId: await invitationIdOf(server, email), answer: "accept" }, { cookie: person.cookie });
  expect(accepted.status).toBe(302);
  expect(accepted.headers.get("location")).toBe("/dashboard");
  expect(readToast(accepted)).toMatchObject({ title: "Welcome to the team" });
  return person;
}

/** Nobody's personal team: no person anywhere has this id (the bug of issue 34 hid behind such ids). */
export async function expectNoPersonsId(server: TestServer, teamId: TeamId): Promise<void> {
  const people = await server.ctx.db.selectFrom("users").select("id").where("id", "=", teamId as string as UserId).execute();
  expect(people, `team ${teamId} has a person's id`).toEqual([]);
}

/** A new team made by `who` on /team (their session then acts in it); its id, which is no person's id. */
export async function createTeamAs(server: TestServer, who: SignedInUser, name: string): Promise<TeamId> {
  const made = await postForm(server, "/team", { intent: "create", name }, { cookie: who.cookie });
  expect(made.status).toBe(302);
  const team = await server.ctx.db.selectFrom("teams").select("id").where("owner_user_id", "=", who.user.id).where("name", "=", name).executeTakeFirstOrThrow();
  await expectNoPersonsId(server, team.id);
  return team.id;
}

export async function createServerAs(server: TestServer, who: SignedInUser, name: string): Promise<ServerId> {
  const res = await postForm(server, "/servers", { name, description: "", endpointUrl: "", maxFileSizeMb: "50", allowedFileTypes: "png" }, { cookie: who.cookie });
  expect(res.status).toBe(200);
  return (await server.ctx.db.selectFrom("servers").select("id").where("name", "=", name).executeTakeFirstOrThrow()).id;
}

/** POST /api/keys as `who`, with the session cookie and the portal's origin. */
export function createKeyAs(server: TestServer, who: SignedInUser, serverId: string, body: Record<string, unknown> = {}) {
  return server.request("/api/keys", {
    method: "POST",
    headers: { Cookie: who.cookie, Origin: server.url, "Content-Type": "application/json" },
    body: JSON.stringify({ name: "Phone script", server_id: serverId, ...body }),
  });
}

export interface StaffTeam {
  id: TeamId;
  name: string;
  serverId: ServerId;
  owner: SignedInUser;
  admin: SignedInUser;
  developer: SignedInUser;
  member: SignedInUser;
  /** A key of the team's server with every file permission, made by the owner. */
  key: string;
}

/**
 * A team as a roleplay server's staff runs it: its owner made it on /team (so it is not the owner's
 * personal team), registered a server and a key, and invited an admin, a developer and a member,
 * each with their role's default permissions. Every session acts in this team.
 */
export async function staffTeam(server: TestServer, name: string): Promise<StaffTeam> {
  const owner = await signUpAndSignIn(server, { displayName: `${name} Owner` });
  const id = await createTeamAs(server, owner, name);
  const serverId = await createServerAs(server, owner, `${name} RP`);
  const created = await createKeyAs(server, owner, serverId, { name: "Owner's script", permissions: ["upload", "read", "delete"] });
  expect(created.status).toBe(201);
  const { api_key: key } = (await created.json()) as { api_key: string };
  const admin = await inviteAndJoin(server, owner, "admin");
  const developer = await inviteAndJoin(server, owner, "developer");
  const member = await inviteAndJoin(server, owner, "member");
  for (const person of [owner, admin, developer, member]) expect(person.user.id as string).not.toBe(id);
  return { id, name, serverId, owner, admin, developer, member, key };
}
