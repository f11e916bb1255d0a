import { CreditCard, RefreshCw } from "lucide-react";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "~/components/ui/card";
import { Progress } from "~/components/ui/progress";
import { barPercent, formatBytes, formatDate, percentUsed } from "~/lib/format";
import { formatGbp, GB, PLANS, type Tier } from "~/lib/plans";

export interface SubscriptionView {
  subscribed: boolean;
  subscription_tier: Tier;
  subscription_end: string | null;
  storage_quota_gb: number;
}

export function CurrentPlanCard(props: {
  subscription: SubscriptionView;
  usedBytes: number;
  addons: { gb: number; expiresAt: string | null }[];
  stripeEnabled: boolean;
  busy: boolean;
  onManage(): void;
  onRefresh(): void;
}) {
  const { subscription, usedBytes, addons } = props;
  const plan = PLANS[subscription.subscription_tier];
  const percent = barPercent(percentUsed(usedBytes, subscription.storage_quota_gb * GB));
  return (
    <Card data-testid="current-plan">
      <CardHeader>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CardTitle className="flex items-center gap-2">
            <CreditCard className="size-5 text-primary" aria-hidden="true" />
            Current Plan
          </CardTitle>
          <Badge variant={subscription.subscribed ? "success" : "secondary"}>{subscription.subscribed ? "Active" : "Free"}</Badge>
        </div>
        <CardDescription>
          {plan.retentionDays ? `Files are kept for ${plan.retentionDays} days after upload.` : "Files are kept forever."}
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <p className="text-2xl font-bold" data-testid="current-plan-name">
            {plan.name}
          </p>
          <p className="text-sm text-muted-foreground">
            {formatGbp(plan.priceGbp)}/month
            {subscription.subscribed && subscription.subscription_end ? ` · Renews on ${formatDate(subscription.subscription_end)}` : ""}
          </p>
        </div>
        <div className="space-y-2">
          <div className="flex justify-between text-sm">
            <span>Storage used</span>
            <span data-testid="storage-quota">
              {formatBytes(usedBytes)} of {subscription.storage_quota_gb} GB
            </span>
          </div>
          <Progress value={percent} aria-label="Storage used" />
        </div>
        {addons.length > 0 ? (
          <ul className="space-y-1 text-sm text-muted-foreground" aria-label="Extra storage">
            {addons.map((addon, i) => (
              <li key={i}>
                +{addon.gb} GB extra storage{addon.expiresAt ? ` until ${formatDate(addon.expiresAt)}` : ""}
              </li>
            ))}
          </ul>
        ) : null}
      </CardContent>
      <CardFooter className="flex flex-wrap gap-2">
        {props.stripeEnabled && subscription.subscribed ? (
          <Button onClick={props.onManage} disabled={props.busy}>
            Manage Subscription
          </Button>
        ) : null}
        <Button variant="outline" onClick={props.onRefresh} disabled={props.busy}>
          <RefreshCw aria-hidden="true" />
          Refresh status
        </Button>
      </CardFooter>
    </Card>
  );
}
