import type { AppLoadContext } from "react-router";
import { DomainError } from "~/services/platform/domain-error.server";
import { CROSS_SITE_MESSAGE, isSameOriginRequest } from "~/http/origin-check.server";
import { runApi } from "~/http/api-route.server";
import { authenticate } from "~/http/guards.server";
import type { SessionUser } from "~/http/guards.server";

/**
 * The signed-in user of a portal JSON endpoint under /api (which server.ts's form origin check
 * skips, as the script API is open to every origin): a 401 "Not authenticated" without a session,
 * and a 403 for a state-changing request sent from another site.
 */
async function requireSessionForApi(request: Request, context: AppLoadContext, unauthenticatedMessage: string): Promise<SessionUser> {
  if (!isSameOriginRequest(request, context.config)) throw new DomainError("permission_denied", CROSS_SITE_MESSAGE);
  const auth = await authenticate(request, context);
  if (!auth) throw new DomainError("not_authenticated", unauthenticatedMessage);
  return auth.user;
}

/**
 * The one wrapper for cookie-authenticated endpoints under /api: the script API's error handling
 * (runApi), the origin check for state-changing requests and the session, in that order.
 */
export function withSession(
  request: Request,
  context: AppLoadContext,
  run: (user: SessionUser) => Promise<Response>,
  options: { unauthenticatedMessage?: string } = {},
): Promise<Response> {
  return runApi(context, async () => run(await requireSessionForApi(request, context, options.unauthenticatedMessage ?? "Not authenticated")));
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
