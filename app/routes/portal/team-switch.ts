import { redirect } from "react-router";
import { actionFail } from "~/http/action-results.server";
import { requireAuthenticated, safeRedirectPath } from "~/http/guards.server";
import { isDomainError } from "~/services/platform/domain-error.server";
import { chooseSessionTeam } from "~/services/teams/teams.server";
import { parseId } from "~/services/platform/ids.server";
import type { TeamId } from "~/lib/ids";
import type { Route } from "./+types/team-switch";

export function loader() {
  return redirect("/team");
}

/** POST teamId: the header's switcher; the session acts in that team from the next page on. */
export async function action({ request, context }: Route.ActionArgs) {
  const { user, sessionId } = await requireAuthenticated(request, context);
  const form = await request.formData();
  try {
    await chooseSessionTeam(context.db, { sessionId, userId: user.id, teamId: parseId<TeamId>(form.get("teamId")) });
  } catch (error) {
    if (!isDomainError(error, "not_found")) throw error;
    return actionFail("Error switching team", "You are not a member of that team.", 404);
  }
  return redirect(safeRedirectPath(form.get("redirectTo"), "/dashboard"));
}
