import { Check } from "lucide-react";
import { Link } from "react-router";
import { buttonVariants } from "~/components/ui/button";
import { PRICING } from "~/lib/content/marketing";
import { formatGbp, PLAN_LIST } from "~/lib/plans";
import { cn } from "~/lib/utils";

/** The four plans, straight from the plan constants billing uses. Every button goes to /auth. */
export function PlanCards({ headingLevel = 3 }: { headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-4" aria-label="Plans">
      {PLAN_LIST.map((plan) => (
        <li
          key={plan.tier}
          data-plan={plan.tier}
          className={cn(
            "relative flex flex-col rounded-xl border bg-card p-6 shadow-sm",
            plan.mostPopular && "border-primary shadow-[0_0_0_1px_var(--primary),0_20px_60px_-30px_var(--primary)]",
          )}
        >
          {plan.mostPopular ? (
            <span className="absolute -top-3 left-6 rounded-full bg-primary px-3 py-0.5 text-xs font-bold uppercase tracking-wide text-primary-foreground">
              {PRICING.mostPopular}
            </span>
          ) : null}
          <Heading className="text-lg font-semibold">{plan.name}</Heading>
          <p className="mt-3 flex items-baseline gap-1">
            <span className="text-4xl font-black tracking-tight">{formatGbp(plan.priceGbp)}</span>
            <span className="text-sm text-muted-foreground">{PRICING.perMonth}</span>
          </p>
          <p className="mt-1 text-sm text-muted-foreground">
            {plan.storageGb}GB storage · {plan.retentionDays ? `${plan.retentionDays}-day retention` : "kept forever"}
          </p>
          <ul className="mt-6 flex-1 space-y-2.5 text-sm">
            {plan.features.map((feature) => (
              <li key={feature} className="flex gap-2">
                <Check className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
                <span>{feature}</span>
              </li>
            ))}
          </ul>
          <Link
            to="/auth"
            className={cn(buttonVariants({ variant: plan.mostPopular ? "default" : "outline" }), "mt-6 w-full")}
            aria-label={`${plan.priceGbp === 0 ? PRICING.freePlanCta : PRICING.planCta} with ${plan.name}`}
          >
            {plan.priceGbp === 0 ? PRICING.freePlanCta : PRICING.planCta}
          </Link>
        </li>
      ))}
    </ul>
  );
}
