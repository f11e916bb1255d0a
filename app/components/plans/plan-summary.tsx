import { Check } from "lucide-react";
import { PRICING } from "~/lib/content/marketing";
import { formatGbp, type Plan } from "~/lib/plans";

/**
 * What a plan card says — badge, name, price, storage and retention, features — for the pricing
 * page and the billing screen alike; each card adds its own call to action below it.
 */
export function PlanSummary({ plan, headingLevel = 3 }: { plan: Plan; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <>
      {plan.mostPopular ? (
        <span className="absolute -top-3 left-6 rounded-full bg-primary px-3 py-0.5 text-xs font-bold uppercase tracking-wide text-primary-foreground">
          {PRICING.mostPopular}
        </span>
      ) : null}
      <Heading className="text-lg font-semibold">{plan.name}</Heading>
      <p className="mt-3 flex items-baseline gap-1">
        <span className="text-3xl font-black tracking-tight md:text-4xl">{formatGbp(plan.priceGbp)}</span>
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
    </>
  );
}
