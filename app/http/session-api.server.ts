import type { AppLoadContext } from "react-router";
import { ApiError } from "~/lib/api-response";
import { CROSS_SITE_MESSAGE, isSameOriginRequest } from "~/http/origin-check.server";
import { authenticate } from "~/http/guards.server";
import type { SessionUser } from "~/http/guards.server";

/**
 * The signed-in user of a portal JSON endpoint under /api (which server.ts's form origin check
 * skips, as the script API is open to every origin): a 401 "Not authenticated" without a session,
 * and a 403 for a state-changing request sent from another site.
 */
export async function requireSessionForApi(request: Request, context: AppLoadContext): Promise<SessionUser> {
  if (!isSameOriginRequest(request, context.config)) throw new ApiError(403, "permission_denied", CROSS_SITE_MESSAGE);
  const auth = await authenticate(request, context);
  if (!auth) throw new ApiError(401, "not_authenticated", "Not authenticated");
  return auth.user;
}

/** A JSON request body, or a 400 that says the body is not JSON. */
export async function readJsonBody(request: Request): Promise<unknown> {
  const text = await request.text();
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, "invalid_request", "Request body must be JSON");
  }
}
