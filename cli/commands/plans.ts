import { isTier, TIERS } from "../../app/lib/plans.ts";
import { getAccountQuota } from "../../app/services/billing/quota.server.ts";
import { setUserPlan } from "../../app/services/billing/subscriptions.server.ts";
import { findUserByEmail } from "../../app/services/accounts/users.server.ts";
import { stringArg, UsageError, type Command } from "../command.ts";

export const planSet: Command = {
  name: "plan:set",
  summary: "Put a user on a plan (for instances without Stripe, or support)",
  options: {
    email: { type: "string", required: true, description: "the user's e-mail" },
    tier: { type: "string", required: true, description: TIERS.join(" | ") },
  },
  async run(ctx, args) {
    const tier = stringArg(args, "tier");
    if (!isTier(tier)) throw new UsageError(`--tier must be one of ${TIERS.join(", ")}`);
    const user = await findUserByEmail(ctx.db, stringArg(args, "email"));
    if (!user) throw new UsageError(`No user with e-mail ${args.email}`);
    await setUserPlan(ctx.db, user.id, { tier, status: "active" });
    const quota = await getAccountQuota(ctx.db, user.id);
    const quotaGb = quota.planGb + quota.addonGb;
    return { json: { email: user.email, tier, storage_quota_gb: quotaGb }, text: `${user.email} is now on ${tier} (${quotaGb} GB)` };
  },
};
