import { redirect } from "react-router";
import { isTier, PLANS } from "~/lib/plans";
import { requireUserWithRole } from "~/http/guards.server";
import { setManualAddonGb, setTeamPlan } from "~/services/billing/subscriptions.server";
import { redirectWithToast } from "~/http/toast.server";
import { parseId } from "~/services/platform/ids.server";
import { findPersonalTeam } from "~/services/teams/teams.server";
import type { UserId } from "~/lib/ids";
import type { Route } from "./+types/user-plan";

/** Hand-granted storage is capped so a typo cannot hand out a petabyte. */
const MAX_MANUAL_ADDON_GB = 100_000;

async function back(type: "success" | "error", title: string, description: string) {
  return redirectWithToast("/admin/users", { type, title, description });
}

export function loader() {
  return redirect("/admin/users");
}

/** An administrator sets a user's plan and hand-granted extra storage (instances without Stripe, or support). */
export async function action({ request, context, params }: Route.ActionArgs) {
  const { user: actor } = await requireUserWithRole(request, context, "admin");
  const form = await request.formData();
  const tier = form.get("tier");
  const addonRaw = String(form.get("addon_gb") ?? "0").trim() || "0";
  const addonGb = Number(addonRaw);
  const userId = parseId<UserId>(params.userId);
  if (!userId) return back("error", "Error", "Failed to update plan");
  if (!isTier(tier)) return back("error", "Error", "Choose one of the plans");
  if (!Number.isInteger(addonGb) || addonGb < 0 || addonGb > MAX_MANUAL_ADDON_GB) {
    return back("error", "Error", `Extra storage must be a whole number of GB from 0 to ${MAX_MANUAL_ADDON_GB}`);
  }
  const target = await context.db.selectFrom("users").select(["id", "email"]).where("id", "=", userId).executeTakeFirst();
  const teamId = target && (await findPersonalTeam(context.db, target.id));
  if (!target || !teamId) return back("error", "Error", "User not found");
  // A user's plan is their own team's (the list shows that one); other teams are set from the CLI.
  await setTeamPlan(context.db, teamId, { tier, status: "active", by: { userId: actor.id, ip: context.clientIp } });
  await setManualAddonGb(context.db, teamId, addonGb);
  context.logger.info({ actorId: actor.id, userId: target.id, teamId, tier, addonGb }, "plan set by admin");
  return back("success", "Plan updated", `${target.email ?? "The user"} is now on ${PLANS[tier].name}${addonGb ? ` with ${addonGb} GB extra storage` : ""}.`);
}
