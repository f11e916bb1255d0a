import { BellRing, Send } from "lucide-react";
import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import { NativeSelect } from "~/components/api-keys/native-select";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import type { ActionResult } from "~/lib/action-result";
import { formatDateTime } from "~/lib/format";
import { LOG_LEVELS } from "~/lib/log-levels";

type Dataset = { id: string; name: string; serverName: string };
type Forward = { id: string; dataset: string; serverName: string; minLevel: string; resource: string | null; contains: string | null; waiting: number; lastError: string | null };
type Alert = { id: string; name: string; kind: string; threshold: number; windowMinutes: number; channel: string; firing: boolean; lastFiredAt: string | null; dataset: string; serverName: string };

function useResettingFetcher() {
  const fetcher = useFetcher<ActionResult>();
  const ref = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) ref.current?.reset();
  }, [fetcher.state, fetcher.data]);
  return { fetcher, ref };
}

function DatasetSelect({ id, datasets }: { id: string; datasets: Dataset[] }) {
  return (
    <NativeSelect id={id} name="datasetId" required>
      {datasets.map((d) => (
        <option key={d.id} value={d.id}>
          {d.name} ({d.serverName})
        </option>
      ))}
    </NativeSelect>
  );
}

function RuleFields({ prefix }: { prefix: string }) {
  return (
    <>
      <div className="grid gap-1">
        <Label htmlFor={`${prefix}-level`}>Level and above</Label>
        <NativeSelect id={`${prefix}-level`} name="minLevel" defaultValue="warn">
          {LOG_LEVELS.map((level) => (
            <option key={level} value={level}>
              {level}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="grid gap-1">
        <Label htmlFor={`${prefix}-resource`}>Resource (optional)</Label>
        <Input id={`${prefix}-resource`} name="resource" maxLength={100} />
      </div>
      <div className="grid gap-1">
        <Label htmlFor={`${prefix}-contains`}>Message contains (optional)</Label>
        <Input id={`${prefix}-contains`} name="contains" maxLength={200} />
      </div>
    </>
  );
}

function RemoveButton({ intent, id, label }: { intent: string; id: string; label: string }) {
  const fetcher = useFetcher<ActionResult>();
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      <Button type="submit" variant="outline" size="sm" disabled={fetcher.state !== "idle"} aria-label={label}>
        Remove
      </Button>
    </fetcher.Form>
  );
}

/** Forwarding matching entries to Discord, and alerts: the Logs page's settings for members who manage servers. */
export function ForwardsAndAlerts({ datasets, forwards, alerts }: { datasets: Dataset[]; forwards: Forward[]; alerts: Alert[] }) {
  const forward = useResettingFetcher();
  const alert = useResettingFetcher();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Forwarding and alerts</CardTitle>
        <CardDescription>
          Forward matching entries to a Discord channel (batched, and held back rather than dropped when Discord asks to slow down), or get told when
          something happens, happens too often, or stops happening.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <forward.fetcher.Form ref={forward.ref} method="post" className="grid gap-3 md:grid-cols-3" aria-label="New forward">
          <input type="hidden" name="intent" value="add-forward" />
          <div className="grid gap-1">
            <Label htmlFor="forward-dataset">Dataset</Label>
            <DatasetSelect id="forward-dataset" datasets={datasets} />
          </div>
          <div className="grid gap-1 md:col-span-2">
            <Label htmlFor="forward-url">Discord webhook URL</Label>
            <Input id="forward-url" name="webhookUrl" type="url" required placeholder="https://discord.com/api/webhooks/…" />
          </div>
          <RuleFields prefix="forward" />
          <div className="md:col-span-3">
            <Button type="submit" disabled={forward.fetcher.state !== "idle"}>
              <Send aria-hidden /> Add forward
            </Button>
          </div>
        </forward.fetcher.Form>
        {forwards.length ? (
          <ul className="divide-y rounded-md border text-sm" aria-label="Forwards">
            {forwards.map((f) => (
              <li key={f.id} className="flex flex-wrap items-center justify-between gap-3 p-3" data-testid="forward-row">
                <span>
                  <span className="font-medium">{f.dataset}</span> on {f.serverName}: {f.minLevel} and above
                  {f.resource ? `, from ${f.resource}` : ""}
                  {f.contains ? `, containing "${f.contains}"` : ""}
                  {f.waiting ? <Badge variant="outline" className="ml-2">{`${f.waiting} waiting`}</Badge> : null}
                  {f.lastError ? <span className="block text-xs text-destructive">{f.lastError}</span> : null}
                </span>
                <RemoveButton intent="delete-forward" id={f.id} label={`Remove the forward of ${f.dataset}`} />
              </li>
            ))}
          </ul>
        ) : null}
        <alert.fetcher.Form ref={alert.ref} method="post" className="grid gap-3 border-t pt-6 md:grid-cols-3" aria-label="New alert">
          <input type="hidden" name="intent" value="add-alert" />
          <div className="grid gap-1">
            <Label htmlFor="alert-name">Alert name</Label>
            <Input id="alert-name" name="name" required maxLength={80} placeholder="Bank robbery spam" />
          </div>
          <div className="grid gap-1">
            <Label htmlFor="alert-dataset">Dataset</Label>
            <DatasetSelect id="alert-dataset" datasets={datasets} />
          </div>
          <div className="grid gap-1">
            <Label htmlFor="alert-kind">Fires on</Label>
            <NativeSelect id="alert-kind" name="kind" defaultValue="match">
              <option value="match">Any matching entry</option>
              <option value="count">More than N in the window</option>
              <option value="absence">No entries for the window (heartbeat)</option>
            </NativeSelect>
          </div>
          <RuleFields prefix="alert" />
          <div className="grid gap-1">
            <Label htmlFor="alert-threshold">N (for “more than N”)</Label>
            <Input id="alert-threshold" name="threshold" type="number" min={1} defaultValue={10} />
          </div>
          <div className="grid gap-1">
            <Label htmlFor="alert-window">Window (minutes)</Label>
            <Input id="alert-window" name="windowMinutes" type="number" min={1} max={1440} defaultValue={5} />
          </div>
          <div className="grid gap-1">
            <Label htmlFor="alert-cooldown">Quiet after firing (minutes)</Label>
            <Input id="alert-cooldown" name="cooldownMinutes" type="number" min={0} max={10080} defaultValue={15} />
          </div>
          <div className="grid gap-1">
            <Label htmlFor="alert-channel">Send to</Label>
            <NativeSelect id="alert-channel" name="channel" defaultValue="discord">
              <option value="discord">Discord webhook</option>
              <option value="email">E-mail</option>
            </NativeSelect>
          </div>
          <div className="grid gap-1 md:col-span-2">
            <Label htmlFor="alert-target">Webhook URL or e-mail address</Label>
            <Input id="alert-target" name="target" required />
          </div>
          <div className="md:col-span-3">
            <Button type="submit" disabled={alert.fetcher.state !== "idle"}>
              <BellRing aria-hidden /> Add alert
            </Button>
          </div>
        </alert.fetcher.Form>
        {alerts.length ? (
          <ul className="divide-y rounded-md border text-sm" aria-label="Alerts">
            {alerts.map((a) => (
              <li key={a.id} className="flex flex-wrap items-center justify-between gap-3 p-3" data-testid="alert-row">
                <span>
                  <span className="font-medium">{a.name}</span> · {a.dataset} on {a.serverName} · to {a.channel === "email" ? "e-mail" : "Discord"}
                  {a.firing ? (
                    <Badge variant="destructive" className="ml-2">
                      Firing
                    </Badge>
                  ) : null}
                  {a.lastFiredAt ? <span className="block text-xs text-muted-foreground">Last fired {formatDateTime(a.lastFiredAt)}</span> : null}
                </span>
                <RemoveButton intent="delete-alert" id={a.id} label={`Remove the alert ${a.name}`} />
              </li>
            ))}
          </ul>
        ) : null}
      </CardContent>
    </Card>
  );
}
