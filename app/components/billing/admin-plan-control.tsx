import { useFetcher } from "react-router";
import { PLAN_LIST, type Tier } from "~/lib/plans";

const field =
  "h-9 rounded-md border border-input bg-background px-2 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring";

/** The admin's plan and extra-storage setting for one user (posts to /admin/users/:id/plan). */
export function AdminPlanControl({ userId, name, plan }: { userId: string; name: string; plan: { tier: Tier; addonGb: number } }) {
  const fetcher = useFetcher();
  return (
    <fetcher.Form method="post" action={`/admin/users/${userId}/plan`} className="flex flex-wrap items-center gap-2 border-t pt-3 sm:basis-full sm:justify-end" data-testid="admin-plan-control">
      <label className="sr-only" htmlFor={`tier-${userId}`}>
        Plan for {name}
      </label>
      <select id={`tier-${userId}`} name="tier" defaultValue={plan.tier} className={field}>
        {PLAN_LIST.map((p) => (
          <option key={p.tier} value={p.tier}>
            {p.name} ({p.storageGb} GB)
          </option>
        ))}
      </select>
      <label className="sr-only" htmlFor={`addon-${userId}`}>
        Extra storage in GB for {name}
      </label>
      <input id={`addon-${userId}`} name="addon_gb" type="number" min={0} step={1} defaultValue={plan.addonGb} className={`${field} w-20`} />
      <span className="text-xs text-muted-foreground">GB extra</span>
      <button type="submit" disabled={fetcher.state !== "idle"} className={`${field} font-medium hover:bg-accent`}>
        Set plan
      </button>
    </fetcher.Form>
  );
}
