import { TriangleAlert } from "lucide-react";
import { Link } from "react-router";
import { formatBytes } from "~/lib/format";

export interface OverageBannerProps {
  overage: { usedBytes: number; quotaBytes: number; overBytes: number } | null;
}

/** Shown across the portal while usage is above the quota: what happened and the ways out. */
export function OverageBanner({ overage }: OverageBannerProps) {
  if (!overage) return null;
  return (
    <div role="alert" data-testid="overage-banner" className="mb-6 flex gap-3 rounded-lg border border-destructive/50 bg-destructive/10 p-4 text-sm">
      <TriangleAlert className="mt-0.5 size-5 shrink-0 text-destructive" aria-hidden="true" />
      <div className="space-y-1">
        <p className="font-semibold">Storage over quota: new uploads are paused</p>
        <p className="text-muted-foreground">
          You are using {formatBytes(overage.usedBytes)} of your {formatBytes(overage.quotaBytes)} quota. Nothing has been
          deleted. To upload again, free up {formatBytes(overage.overBytes)} in the{" "}
          <Link to="/storage" className="font-medium text-foreground underline underline-offset-4">
            Storage Manager
          </Link>
          , or{" "}
          <Link to="/billing" className="font-medium text-foreground underline underline-offset-4">
            buy extra storage or upgrade your plan
          </Link>
          .
        </p>
      </div>
    </div>
  );
}
