import { HardDrive } from "lucide-react";
import { useState } from "react";
import { showToast } from "~/lib/toast";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { BILLING_MESSAGES } from "~/lib/billing-messages";
import { ADDON_DEFAULT_GB, ADDON_MAX_GB, ADDON_MIN_GB, formatGbp, parseStorageGb, PLANS, storageAddonPriceGbp, type Tier } from "~/lib/plans";

export function StorageAddonCard(props: { tier: Tier; stripeEnabled: boolean; busy: boolean; onPurchase(gb: number): void }) {
  const [raw, setRaw] = useState(String(ADDON_DEFAULT_GB));
  const gb = parseStorageGb(raw);
  const rate = PLANS[props.tier].overagePerGbGbp;
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (gb <= 0) {
      showToast({ type: "error", title: BILLING_MESSAGES.invalidAmountTitle, description: BILLING_MESSAGES.invalidAmountMessage });
      return;
    }
    props.onPurchase(gb);
  };
  return (
    <Card data-testid="storage-addon">
      <form onSubmit={submit}>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <HardDrive className="size-5 text-primary" aria-hidden="true" />
            Buy Extra Storage
          </CardTitle>
          <CardDescription>
            {formatGbp(rate)} per GB on your plan. Extra storage expires at the end of the current billing cycle.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-2">
          <Label htmlFor="storage-gb">Storage (GB)</Label>
          <Input
            id="storage-gb"
            name="storage_gb"
            type="number"
            inputMode="numeric"
            min={ADDON_MIN_GB}
            max={ADDON_MAX_GB}
            step={1}
            value={raw}
            onChange={(e) => setRaw(e.target.value)}
            disabled={!props.stripeEnabled}
          />
          <p className="text-sm text-muted-foreground" data-testid="storage-total">
            Total: {formatGbp(storageAddonPriceGbp(props.tier, gb))}
          </p>
        </CardContent>
        <CardFooter>
          <Button type="submit" disabled={!props.stripeEnabled || props.busy || gb <= 0}>
            Purchase {gb > 0 ? `${gb} GB` : "Storage"}
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}
