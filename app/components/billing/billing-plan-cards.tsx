import { Check } from "lucide-react";
import { Button } from "~/components/ui/button";
import { planButton } from "~/lib/billing-plans";
import { formatGbp, PLAN_LIST, type Tier } from "~/lib/plans";
import { cn } from "~/lib/utils";

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
            {plan.mostPopular ? (
              <span className="absolute -top-3 left-6 rounded-full bg-primary px-3 py-0.5 text-xs font-bold uppercase tracking-wide text-primary-foreground">
                Most Popular
              </span>
            ) : null}
            <h3 className="text-lg font-semibold">{plan.name}</h3>
            <p className="mt-3 flex items-baseline gap-1">
              <span className="text-3xl font-black tracking-tight">{formatGbp(plan.priceGbp)}</span>
              <span className="text-sm text-muted-foreground">/month</span>
            </p>
            <p className="mt-1 text-sm text-muted-foreground">
              {plan.storageGb}GB storage · {plan.retentionDays ? `${plan.retentionDays}-day retention` : "kept forever"}
            </p>
            <ul className="mt-5 flex-1 space-y-2 text-sm">
              {plan.features.map((feature) => (
                <li key={feature} className="flex gap-2">
                  <Check className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
                  <span>{feature}</span>
                </li>
              ))}
            </ul>
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
