import { Info } from "lucide-react";
import { useCallback, useEffect, useState } from "react";
import { useRevalidator, useSearchParams } from "react-router";
import { showToast } from "~/lib/toast";
import { BillingPlanCards } from "~/components/billing/billing-plan-cards";
import { CurrentPlanCard, type SubscriptionView } from "~/components/billing/current-plan-card";
import { openStripePage } from "~/components/billing/open-stripe";
import { StorageAddonCard } from "~/components/billing/storage-addon-card";
import { BILLING_MESSAGES } from "~/lib/billing-messages";
import { pageTitle } from "~/lib/site";
import { requireTeam } from "~/http/guards.server";
import { loadBillingPage } from "~/services/billing/billing-overview.server";
import type { Route } from "./+types/billing";

export function meta({ matches }: Route.MetaArgs) {
  const appName = (matches[1]?.data as { appName?: string } | undefined)?.appName;
  return [{ title: pageTitle("Billing", appName) }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { team } = await requireTeam(request, context, "manage_billing");
  return loadBillingPage(context.db, context.config, team.id);
}

/** Seconds after a successful checkout at which the status is read again: the webhook may lag the redirect. */
const RECHECK_AFTER_MS = 4000;

const RETURN_FLAGS = [
  { param: "success", show: () => showToast({ type: "success", title: BILLING_MESSAGES.subscriptionSuccess }), refresh: true },
  { param: "canceled", show: () => showToast({ type: "info", title: BILLING_MESSAGES.subscriptionCanceled }), refresh: false },
  { param: "storage_success", show: () => showToast({ type: "success", title: BILLING_MESSAGES.storageSuccess }), refresh: true },
  { param: "storage_canceled", show: () => showToast({ type: "info", title: BILLING_MESSAGES.storageCanceled }), refresh: false },
] as const;

export default function Billing({ loaderData }: Route.ComponentProps) {
  const { stripeEnabled, usedBytes, addons } = loaderData;
  const [subscription, setSubscription] = useState<SubscriptionView>(loaderData.subscription);
  const [busy, setBusy] = useState(false);
  const [searchParams, setSearchParams] = useSearchParams();
  const revalidator = useRevalidator();

  useEffect(() => setSubscription(loaderData.subscription), [loaderData.subscription]);

  const refresh = useCallback(async () => {
    try {
      const res = await fetch("/api/billing/check-subscription", { method: "POST" });
      const data = (await res.json().catch(() => ({}))) as SubscriptionView & { error?: string };
      if (!res.ok) throw new Error(data.error);
      setSubscription(data);
      await revalidator.revalidate();
    } catch (error) {
      showToast({ type: "error", title: BILLING_MESSAGES.errorChecking, description: error instanceof Error && error.message ? error.message : undefined });
    }
  }, [revalidator]);

  useEffect(() => {
    const flag = RETURN_FLAGS.find((f) => searchParams.get(f.param) === "true");
    if (!flag) return;
    // Deferred a tick so the toaster has mounted after hydration.
    const shown = setTimeout(flag.show, 0);
    setSearchParams({}, { replace: true, preventScrollReset: true });
    if (!flag.refresh) return () => clearTimeout(shown);
    void refresh();
    const again = setTimeout(() => void refresh(), RECHECK_AFTER_MS);
    return () => {
      clearTimeout(shown);
      clearTimeout(again);
    };
    // Runs once per return from Stripe; refresh and setSearchParams are stable enough for that.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [searchParams]);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="space-y-8">
      <header className="space-y-1">
        <h1 className="text-2xl font-bold tracking-tight">Server Hosting Plans</h1>
        <p className="text-muted-foreground">Choose the storage your servers need. Upgrades take effect immediately.</p>
      </header>

      {!stripeEnabled ? (
        <div role="note" data-testid="payments-disabled" className="flex gap-3 rounded-lg border bg-muted/40 p-4 text-sm">
          <Info className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
          <p>{BILLING_MESSAGES.paymentsDisabled}</p>
        </div>
      ) : null}

      <div className="grid gap-6 lg:grid-cols-2">
        <CurrentPlanCard
          subscription={subscription}
          usedBytes={usedBytes}
          addons={addons}
          stripeEnabled={stripeEnabled}
          busy={busy}
          onRefresh={() => void run(refresh)}
          onManage={() =>
            void run(() =>
              openStripePage("/api/billing/customer-portal", {}, { title: BILLING_MESSAGES.errorPortal, fallback: BILLING_MESSAGES.errorPortal }),
            )
          }
        />
        <StorageAddonCard
          tier={subscription.subscription_tier}
          stripeEnabled={stripeEnabled}
          busy={busy}
          onPurchase={(gb) =>
            void run(() =>
              openStripePage(
                "/api/billing/purchase-storage",
                { storage_gb: gb },
                { title: BILLING_MESSAGES.purchaseFailedTitle, fallback: BILLING_MESSAGES.purchaseFailedMessage },
              ),
            )
          }
        />
      </div>

      <BillingPlanCards
        current={{ tier: subscription.subscription_tier, quotaGb: subscription.storage_quota_gb }}
        stripeEnabled={stripeEnabled}
        busy={busy}
        onChoose={(tier) =>
          void run(() =>
            openStripePage("/api/billing/create-checkout", { tier }, { title: BILLING_MESSAGES.errorCheckout, fallback: BILLING_MESSAGES.errorCheckout }),
          )
        }
      />
    </section>
  );
}
