import { Button } from "~/components/ui/button";
import { planButton } from "~/lib/billing-plans";
import { PLAN_LIST, type Tier } from "~/lib/plans";
import { cn } from "~/lib/utils";
import { PlanSummary } from "~/components/plans/plan-summary";

/** The four plans with the portal's button rules; checkout opens for the chosen plan id. */
export function BillingPlanCards(props: {
  current: { tier: Tier; quotaGb: number };
  stripeEnabled: boolean;
  busy: boolean;
  onChoose(tier: Tier): void;
}) {
  return (
    <ul className="grid gap-5 sm:grid-cols-2 xl:grid-cols-4" aria-label="Plans">
      {PLAN_LIST.map((plan) => {
        const button = planButton(plan.tier, props.current);
        const isCurrent = plan.tier === props.current.tier;
        return (
          <li
            key={plan.tier}
            data-plan={plan.tier}
            className={cn(
              "relative flex flex-col rounded-xl border bg-card p-6 shadow-sm",
              plan.mostPopular && "border-primary",
              isCurrent && "ring-2 ring-primary/60",
            )}
          >
            <PlanSummary plan={plan} />
            <Button
              className="mt-6 w-full"
              variant={plan.mostPopular && !button.disabled ? "default" : "outline"}
              disabled={button.disabled || !props.stripeEnabled || props.busy}
              aria-label={`${button.label}: ${plan.name}`}
              onClick={() => props.onChoose(plan.tier)}
            >
              {button.label}
            </Button>
          </li>
        );
      })}
    </ul>
  );
}
