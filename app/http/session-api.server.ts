import type { AppLoadContext } from "react-router";
import { DomainError } from "~/services/platform/domain-error.server";
import { CROSS_SITE_MESSAGE, isSameOriginRequest } from "~/http/origin-check.server";
import { runApi } from "~/http/api-route.server";
import { authenticate, loadCurrentTeam, teamPermissionMessage, type TeamAuthenticated } from "~/http/guards.server";
import type { TeamPermission } from "~/lib/team-roles";
import { recordRefusedRequest } from "~/http/portal-audit.server";

/**
 * The signed-in user of a portal JSON endpoint under /api (which server.ts's form origin check
 * skips, as the script API is open to every origin): a 401 "Not authenticated" without a session,
 * and a 403 for a state-changing request sent from another site.
 */
async function requireSessionForApi(
  request: Request,
  context: AppLoadContext,
  options: { unauthenticatedMessage: string; permission?: TeamPermission },
): Promise<TeamAuthenticated> {
  if (!isSameOriginRequest(request, context.config)) throw new DomainError("permission_denied", CROSS_SITE_MESSAGE);
  const auth = await authenticate(request, context);
  if (!auth) throw new DomainError("not_authenticated", options.unauthenticatedMessage);
  const team = await loadCurrentTeam(context, auth);
  if (options.permission && !team.permissions.includes(options.permission)) {
    await recordRefusedRequest(context, { user: auth.user, team }, request, options.permission);
    throw new DomainError("permission_denied", teamPermissionMessage(team, options.permission));
  }
  return { ...auth, team };
}

/**
 * The one wrapper for cookie-authenticated endpoints under /api: the script API's error handling
 * (runApi), the origin check for state-changing requests, the session and the current team (with
 * the permission the endpoint needs: a JSON 403 that names it, and a refused change on the team's
 * audit trail), in that order.
 */
export function withSession(
  request: Request,
  context: AppLoadContext,
  run: (auth: TeamAuthenticated) => Promise<Response>,
  options: { unauthenticatedMessage?: string; permission?: TeamPermission } = {},
): Promise<Response> {
  return runApi(context, async () =>
    run(await requireSessionForApi(request, context, { unauthenticatedMessage: options.unauthenticatedMessage ?? "Not authenticated", permission: options.permission })),
  );
}

/** A JSON request body, or a 400 that says the body is not JSON. */
export async function readJsonBody(request: Request): Promise<unknown> {
  const text = await request.text();
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new DomainError("invalid_request", "Request body must be JSON");
  }
}
