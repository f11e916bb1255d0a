import { HardDrive } from "lucide-react";
import { PRICING } from "~/lib/content/marketing";
import { ADDON_DEFAULT_GB, formatGbp, PLAN_LIST } from "~/lib/plans";

/** Per-plan price of extra storage, from the same overage rates billing charges. */
export function StorageAddons({ headingId }: { headingId: string }) {
  return (
    <div className="rounded-xl border bg-card p-6 md:p-8">
      <div className="flex flex-col gap-6 md:flex-row md:items-start md:justify-between">
        <div className="max-w-md">
          <HardDrive className="mb-3 size-8 text-primary" aria-hidden="true" />
          <h2 id={headingId} className="text-2xl font-bold tracking-tight">
            {PRICING.addonsTitle}
          </h2>
          <p className="mt-3 text-muted-foreground">{PRICING.addonsLead}</p>
        </div>
        <table className="w-full max-w-md text-sm">
          <caption className="sr-only">Extra storage price per GB by plan</caption>
          <thead>
            <tr className="border-b text-left text-muted-foreground">
              <th scope="col" className="py-2 font-medium">
                Plan
              </th>
              <th scope="col" className="py-2 font-medium">
                Per GB
              </th>
              <th scope="col" className="py-2 text-right font-medium">
                {ADDON_DEFAULT_GB}GB add-on
              </th>
            </tr>
          </thead>
          <tbody>
            {PLAN_LIST.map((plan) => (
              <tr key={plan.tier} className="border-b last:border-0">
                <th scope="row" className="py-2.5 text-left font-medium">
                  {plan.name}
                </th>
                <td className="py-2.5">{formatGbp(plan.overagePerGbGbp)}</td>
                <td className="py-2.5 text-right font-mono">{formatGbp(plan.overagePerGbGbp * ADDON_DEFAULT_GB)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
