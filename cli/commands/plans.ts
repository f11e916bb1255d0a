import { isTier, TIERS } from "../../app/lib/plans.ts";
import { getAccountQuota } from "../../app/services/billing/quota.server.ts";
import { setTeamPlan } from "../../app/services/billing/subscriptions.server.ts";
import { TEAM_OPTION, teamFromArgs } from "./teams.ts";
import { stringArg, UsageError, type Command } from "../command.ts";

export const planSet: Command = {
  name: "plan:set",
  summary: "Put a team on a plan (for instances without Stripe, or support)",
  options: {
    email: { type: "string", required: true, description: "the e-mail of a member of the team" },
    team: TEAM_OPTION,
    tier: { type: "string", required: true, description: TIERS.join(" | ") },
  },
  async run(ctx, args) {
    const tier = stringArg(args, "tier");
    if (!isTier(tier)) throw new UsageError(`--tier must be one of ${TIERS.join(", ")}`);
    const team = await teamFromArgs(ctx, args, "email");
    await setTeamPlan(ctx.db, team.id, { tier, status: "active" });
    const quota = await getAccountQuota(ctx.db, team.id);
    const quotaGb = quota.planGb + quota.addonGb;
    return { json: { email: team.email, team: { id: team.id, name: team.name }, tier, storage_quota_gb: quotaGb }, text: `${team.name} (${team.email}) is now on ${tier} (${quotaGb} GB)` };
  },
};
