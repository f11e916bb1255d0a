import { redirect } from "react-router";
import { isTier, PLANS } from "~/lib/plans";
import { requireUserWithRole } from "~/http/guards.server";
import { setManualAddonGb, setTeamPlan } from "~/services/billing/subscriptions.server";
import { redirectWithToast } from "~/http/toast.server";
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
  if (!/^[0-9a-f-]{36}$/i.test(params.userId)) return back("error", "Error", "Failed to update plan");
  if (!isTier(tier)) return back("error", "Error", "Choose one of the plans");
  if (!Number.isInteger(addonGb) || addonGb < 0 || addonGb > MAX_MANUAL_ADDON_GB) {
    return back("error", "Error", `Extra storage must be a whole number of GB from 0 to ${MAX_MANUAL_ADDON_GB}`);
  }
  const target = await context.db.selectFrom("users").select(["id", "email"]).where("id", "=", params.userId).executeTakeFirst();
  if (!target) return back("error", "Error", "User not found");
  await setTeamPlan(context.db, target.id, { tier, status: "active", by: { userId: actor.id, ip: context.clientIp } });
  await setManualAddonGb(context.db, target.id, addonGb);
  context.logger.info({ actorId: actor.id, userId: target.id, tier, addonGb }, "plan set by admin");
  return back("success", "Plan updated", `${target.email ?? "The user"} is now on ${PLANS[tier].name}${addonGb ? ` with ${addonGb} GB extra storage` : ""}.`);
}
