import { data, redirect, type AppLoadContext } from "react-router";
import { isDatabaseUnavailable } from "../../db/connection-errors";
import { PERMISSION_LABELS, type CurrentTeam, type TeamPermission } from "~/lib/team-roles";
import { createTeam, resolveCurrentTeam } from "~/services/teams/teams.server";
import {
  readSession,
  readSessionToken,
  serializeSessionCookie,
  type ActiveSession,
  type SessionUser,
} from "~/services/accounts/sessions.server";
import type { TeamId } from "~/lib/ids";
import { recordRefusedRequest } from "~/http/portal-audit.server";

export type { SessionUser };

export interface Authenticated {
  user: SessionUser;
  sessionId: string;
  /** The team the session switched to; `requireTeam` checks it is still one of the user's. */
  chosenTeamId: TeamId | null;
  /** Headers a layout loader should return: the re-sent cookie when the rolling expiry moved. */
  headers: Headers;
}

/** Same-site path to come back to after signing in; anything else falls back to /dashboard. */
export function safeRedirectPath(value: FormDataEntryValue | string | null | undefined, fallback = "/dashboard"): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) {
    return fallback;
  }
  return value;
}

function signInRedirect(request: Request): Response {
  const url = new URL(request.url);
  const back = `${url.pathname}${url.search}`;
  return redirect(`/auth?${new URLSearchParams({ redirectTo: back })}`);
}

export async function authenticate(request: Request, context: AppLoadContext): Promise<Authenticated | null> {
  const token = readSessionToken(context.config, request.headers.get("Cookie"));
  if (!token) return null;
  const session: ActiveSession | null = await readSession(context.db, token);
  if (!session) return null;
  const headers = new Headers();
  if (session.extended) headers.append("Set-Cookie", serializeSessionCookie(context.config, token, session.expiresAt));
  return { user: session.user, sessionId: session.id, chosenTeamId: session.chosenTeamId, headers };
}

export async function getOptionalUser(request: Request, context: AppLoadContext): Promise<SessionUser | null> {
  return (await authenticate(request, context))?.user ?? null;
}

/** A page asked for while the database is unreachable: a readable 503 (the root error page) instead of a 500. */
function pageError(context: AppLoadContext, error: unknown): unknown {
  if (!isDatabaseUnavailable(error)) return error;
  context.logger.warn({ err: error, requestId: context.requestId }, "database unavailable");
  return data("The database is unavailable right now. Nothing was lost; try again in a few seconds.", { status: 503, statusText: "Service Unavailable" });
}

/** The signed-in user; a visitor is redirected to /auth and brought back here after signing in. */
export async function requireAuthenticated(request: Request, context: AppLoadContext): Promise<Authenticated> {
  const auth = await authenticate(request, context).catch((error: unknown) => {
    throw pageError(context, error);
  });
  if (!auth) throw signInRedirect(request);
  return auth;
}

export async function requireUser(request: Request, context: AppLoadContext): Promise<SessionUser> {
  return (await requireAuthenticated(request, context)).user;
}

/** The spec's words for an admin check that failed for a reason other than the database being down. */
export function adminCheckMessage(cause: unknown): string {
  return `Failed to verify admin permissions: ${cause instanceof Error ? cause.message : String(cause)}`;
}

/**
 * Signed in and holding `role`: a visitor goes to /auth, anyone else to /. The role comes from
 * the users row joined on every request, so a demotion takes effect on the next page.
 */
export async function requireUserWithRole(
  request: Request,
  context: AppLoadContext,
  role: "admin",
): Promise<Authenticated> {
  let auth: Authenticated | null;
  try {
    auth = await authenticate(request, context);
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw pageError(context, error);
    context.logger.error({ err: error }, "admin check failed");
    throw data({ adminCheckError: adminCheckMessage(error) }, { status: 500 });
  }
  if (!auth) throw signInRedirect(request);
  if (auth.user.role !== role) throw redirect("/");
  return auth;
}

export interface TeamAuthenticated extends Authenticated {
  team: CurrentTeam;
}

/** The words of a refusal for a member whose role lacks `permission`. */
export function teamPermissionMessage(team: CurrentTeam, permission: TeamPermission): string {
  return `Your role in ${team.name} does not allow this (it needs the "${PERMISSION_LABELS[permission]}" permission).`;
}

/** The team a signed-in person acts in; someone who left every team gets a new one of their own. */
export async function loadCurrentTeam(context: AppLoadContext, auth: Authenticated): Promise<CurrentTeam> {
  const team = await resolveCurrentTeam(context.db, auth.user.id, auth.chosenTeamId);
  if (team) return team;
  await createTeam(context.db, { name: auth.user.displayName ?? "Personal", ownerUserId: auth.user.id });
  const made = await resolveCurrentTeam(context.db, auth.user.id, null);
  if (!made) throw new Error("no team after making one");
  return made;
}

/**
 * The signed-in member and the team they act in (the header's switcher), holding `permission`
 * when one is named: a visitor goes to /auth, a member without it gets a 403 page that names it (a
 * refused form post is also on the team's audit trail).
 * Every portal screen reads and changes the current team's servers, files, keys and plan.
 */
export async function requireTeam(request: Request, context: AppLoadContext, permission?: TeamPermission): Promise<TeamAuthenticated> {
  const auth = await requireAuthenticated(request, context);
  const team = await loadCurrentTeam(context, auth).catch((error: unknown) => {
    throw pageError(context, error);
  });
  if (permission && !team.permissions.includes(permission)) {
    await recordRefusedRequest(context, { user: auth.user, team }, request, permission);
    throw data(teamPermissionMessage(team, permission), { status: 403, statusText: "Forbidden" });
  }
  return { ...auth, team };
}
