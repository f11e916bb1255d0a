import { Link } from "react-router";
import { buttonVariants } from "~/components/ui/button";
import { PRICING } from "~/lib/content/marketing";
import { PLAN_LIST } from "~/lib/plans";
import { cn } from "~/lib/utils";
import { PlanSummary } from "~/components/plans/plan-summary";

/** The four plans, straight from the plan constants billing uses. Every button goes to /auth. */
export function PlanCards({ headingLevel = 3 }: { headingLevel?: 2 | 3 }) {
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
          <PlanSummary plan={plan} headingLevel={headingLevel} />
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
