import { RefreshCw, Trash2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "~/components/ui/alert-dialog";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import type { ActionResult } from "~/lib/action-result";
import { apiKeyStatusLabel } from "~/lib/api-key-status";
import { formatBytes, formatCount, formatDate, formatDateTime } from "~/lib/format";
import type { RevealedKey } from "~/components/api-keys/new-key-form";

export interface KeyRow {
  id: string;
  name: string;
  serverName: string;
  keyPrefix: string;
  status: string;
  permissions: string[];
  expiresAt: Date | string | null;
  lastUsedAt: Date | string | null;
  calls30d: number;
  createdAt: Date | string;
  categories: string[] | null;
  maxFileBytes: number | null;
  allowedIps: string[] | null;
}

function StatusBadge({ label }: { label: string }) {
  const variant = label === "Active" ? "success" : label === "Expired" || label === "Revoked" ? "destructive" : "secondary";
  return <Badge variant={variant}>{label}</Badge>;
}

type Pending = { kind: "regenerate" | "delete"; key: KeyRow } | null;

export function KeyList({ keys, onRegenerated }: { keys: KeyRow[]; onRegenerated: (key: RevealedKey) => void }) {
  const fetcher = useFetcher<ActionResult & Partial<RevealedKey>>();
  const [pending, setPending] = useState<Pending>(null);
  // Each answer reveals its key once, however often the parent re-renders.
  const handled = useRef<unknown>(null);
  useEffect(() => {
    const result = fetcher.data;
    if (fetcher.state === "idle" && result?.ok && result.secret && handled.current !== result) {
      handled.current = result;
      onRegenerated({ secret: result.secret, keyName: result.keyName ?? "", serverId: result.serverId ?? "" });
    }
  }, [fetcher.state, fetcher.data, onRegenerated]);

  const confirm = () => {
    if (!pending) return;
    fetcher.submit({ intent: pending.kind, keyId: pending.key.id }, { method: "post" });
    setPending(null);
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Your API Keys</CardTitle>
        <CardDescription>Only the prefix is kept; a lost key can be regenerated.</CardDescription>
      </CardHeader>
      <CardContent>
        {keys.length === 0 ? (
          <p className="py-6 text-center text-muted-foreground">No API keys yet. Create one above to connect your server.</p>
        ) : (
          <ul className="divide-y rounded-md border" aria-label="API keys">
            {keys.map((key) => (
              <li key={key.id} className="flex flex-col gap-3 p-3 md:flex-row md:items-center" data-testid="api-key-row">
                <div className="min-w-0 flex-1 space-y-1">
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="font-medium break-words">{key.name}</span>
                    <StatusBadge label={apiKeyStatusLabel(key.status, key.expiresAt)} />
                  </div>
                  <div className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground">
                    <span>Server: {key.serverName}</span>
                    <span className="font-mono">{key.keyPrefix}…</span>
                    <span>{`Can ${key.permissions.join(", ")}`}</span>
                    {key.categories ? <span data-testid="api-key-categories">{`Only ${key.categories.join(", ")}`}</span> : null}
                    {key.maxFileBytes !== null ? <span>{`Files up to ${formatBytes(key.maxFileBytes)}`}</span> : null}
                    {key.allowedIps ? <span data-testid="api-key-addresses">{`From ${key.allowedIps.join(", ")}`}</span> : null}
                    <span>Created {formatDate(key.createdAt)}</span>
                    <span>{key.expiresAt ? `Expires ${formatDate(key.expiresAt)}` : "Never expires"}</span>
                    <span>Last used: {formatDateTime(key.lastUsedAt)}</span>
                    <span data-testid="api-key-calls">{`${formatCount(key.calls30d, "call")} in 30 days`}</span>
                  </div>
                </div>
                <div className="flex gap-2">
                  <Button variant="outline" size="sm" onClick={() => setPending({ kind: "regenerate", key })} aria-label={`Regenerate ${key.name}`}>
                    <RefreshCw aria-hidden /> Regenerate
                  </Button>
                  <Button variant="destructive" size="sm" onClick={() => setPending({ kind: "delete", key })} aria-label={`Delete ${key.name}`}>
                    <Trash2 aria-hidden /> Delete
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
      <AlertDialog open={pending !== null} onOpenChange={(open) => !open && setPending(null)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>{pending?.kind === "delete" ? "Delete API key?" : "Regenerate API key?"}</AlertDialogTitle>
            <AlertDialogDescription>
              {pending?.kind === "delete"
                ? `"${pending.key.name}" will be deleted permanently. Scripts using it will stop working.`
                : `The current "${pending?.key.name}" key stops working immediately and a new one is shown once.`}
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <Button variant={pending?.kind === "delete" ? "destructive" : "default"} onClick={confirm}>
              {pending?.kind === "delete" ? "Delete" : "Regenerate"}
            </Button>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </Card>
  );
}
