import { RefreshCw } from "lucide-react";
import { useState } from "react";
import { useFetcher } from "react-router";
import { CopyButton } from "~/components/portal/copy-button";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "~/components/ui/alert-dialog";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import type { ActionResult } from "~/lib/action-result";

/** A Discord-compatible webhook URL: scripts that post to Discord only swap the URL. */
export function WebhookCard({ url }: { url: string }) {
  const fetcher = useFetcher<ActionResult>();
  const [confirming, setConfirming] = useState(false);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Discord-compatible Webhook</CardTitle>
        <CardDescription>
          Paste this where a script expects a Discord webhook URL. Files it posts are stored on this server and the answer looks like Discord&apos;s.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        <Label htmlFor="webhook-url">Webhook URL</Label>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Input id="webhook-url" readOnly value={url} className="font-mono text-xs" onFocus={(e) => e.currentTarget.select()} />
          <div className="flex shrink-0 gap-2">
            <CopyButton text={url} label="Copy URL" />
            <AlertDialog open={confirming} onOpenChange={setConfirming}>
              <AlertDialogTrigger asChild>
                <Button type="button" variant="outline" size="sm" disabled={fetcher.state !== "idle"}>
                  <RefreshCw aria-hidden /> Rotate
                </Button>
              </AlertDialogTrigger>
              <AlertDialogContent>
                <AlertDialogHeader>
                  <AlertDialogTitle>Rotate webhook URL?</AlertDialogTitle>
                  <AlertDialogDescription>Scripts using the current URL stop working until you give them the new one.</AlertDialogDescription>
                </AlertDialogHeader>
                <AlertDialogFooter>
                  <AlertDialogCancel>Cancel</AlertDialogCancel>
                  <fetcher.Form method="post" onSubmit={() => setConfirming(false)}>
                    <input type="hidden" name="intent" value="webhook-rotate" />
                    <Button type="submit" className="w-full">
                      Rotate
                    </Button>
                  </fetcher.Form>
                </AlertDialogFooter>
              </AlertDialogContent>
            </AlertDialog>
          </div>
        </div>
        <p className="text-xs text-muted-foreground">Keep it secret: anyone with this URL can upload to this server. Rotating makes the old URL stop working.</p>
      </CardContent>
    </Card>
  );
}
