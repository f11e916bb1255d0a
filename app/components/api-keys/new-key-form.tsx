import { KeyRound } from "lucide-react";
import { useEffect, useRef } from "react";
import { Link, useFetcher } from "react-router";
import { showToast } from "~/lib/toast";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import type { ActionResult } from "~/lib/action-result";
import {
  API_KEY_EXPIRY_OPTIONS,
  API_KEY_MESSAGES,
  API_KEY_PERMISSION_LABELS,
  API_KEY_PERMISSIONS,
  DEFAULT_API_KEY_PERMISSIONS,
  KEY_PERMISSION_REQUIRES,
  type ApiKeyPermission,
} from "~/lib/api-key-status";
import { PERMISSION_LABELS } from "~/lib/team-roles";
import { NativeSelect } from "~/components/api-keys/native-select";

export interface RevealedKey {
  secret: string;
  keyName: string;
  serverId: string;
}

export function NewKeyForm({
  servers,
  selectedServerId,
  grantable,
  onCreated,
}: {
  servers: { id: string; name: string }[];
  selectedServerId: string | null;
  /** The permissions this member may give a key: the others are shown, but cannot be ticked. */
  grantable: readonly ApiKeyPermission[];
  onCreated: (key: RevealedKey) => void;
}) {
  const fetcher = useFetcher<ActionResult & Partial<RevealedKey>>();
  const formRef = useRef<HTMLFormElement>(null);
  // Each answer reveals its key once, however often the parent re-renders.
  const handled = useRef<unknown>(null);
  useEffect(() => {
    const result = fetcher.data;
    if (fetcher.state === "idle" && result?.ok && result.secret && handled.current !== result) {
      handled.current = result;
      onCreated({ secret: result.secret, keyName: result.keyName ?? "", serverId: result.serverId ?? "" });
      formRef.current?.reset();
    }
  }, [fetcher.state, fetcher.data, onCreated]);
  const noServers = servers.length === 0;
  const busy = fetcher.state !== "idle";

  return (
    <Card>
      <CardHeader>
        <CardTitle>Create New API Key</CardTitle>
        <CardDescription>A key works for one server and can do only what you allow it.</CardDescription>
      </CardHeader>
      <CardContent>
        <fetcher.Form
          method="post"
          ref={formRef}
          noValidate
          className="grid gap-4 md:grid-cols-2"
          onSubmit={(event) => {
            const data = new FormData(event.currentTarget);
            if (!String(data.get("name") ?? "").trim() || !data.get("serverId")) {
              event.preventDefault();
              showToast({ type: "error", ...API_KEY_MESSAGES.missing });
            } else if (data.getAll("permissions").length === 0) {
              event.preventDefault();
              showToast({ type: "error", title: "Error creating API key", description: API_KEY_MESSAGES.noPermissions });
            }
          }}
        >
          <input type="hidden" name="intent" value="create" />
          <div className="grid gap-2">
            <Label htmlFor="key-name">Key Name</Label>
            <Input id="key-name" name="name" maxLength={100} placeholder="e.g. Phone camera uploads" disabled={noServers} required />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="key-server">Associated Server</Label>
            <NativeSelect id="key-server" name="serverId" defaultValue={selectedServerId ?? ""} disabled={noServers} required>
              {noServers ? <option value="">No servers</option> : null}
              {servers.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </NativeSelect>
          </div>
          <fieldset className="grid gap-2" disabled={noServers}>
            <legend className="mb-2 text-sm font-medium">Permissions</legend>
            <div className="flex flex-wrap gap-x-5 gap-y-2">
              {API_KEY_PERMISSIONS.map((permission) => {
                const allowed = grantable.includes(permission);
                return (
                  <label key={permission} className={`flex items-center gap-2 text-sm ${allowed ? "cursor-pointer" : "text-muted-foreground"}`}>
                    <input
                      type="checkbox"
                      name="permissions"
                      value={permission}
                      defaultChecked={allowed && DEFAULT_API_KEY_PERMISSIONS.includes(permission)}
                      disabled={!allowed}
                      className="h-4 w-4 shrink-0 accent-primary"
                    />
                    {API_KEY_PERMISSION_LABELS[permission]}
                  </label>
                );
              })}
            </div>
            <p className="text-xs text-muted-foreground">Read lists and fetches files; Delete lets a script remove them.</p>
            {grantable.length < API_KEY_PERMISSIONS.length ? (
              <p className="text-xs text-muted-foreground" data-testid="key-permission-limit">
                A key can do only what you may: {API_KEY_PERMISSIONS.filter((p) => !grantable.includes(p)).map((p) => `${API_KEY_PERMISSION_LABELS[p]} needs "${PERMISSION_LABELS[KEY_PERMISSION_REQUIRES[p]]}"`).join("; ")}.
              </p>
            ) : null}
          </fieldset>
          <div className="grid gap-2 self-start">
            <Label htmlFor="key-expiry">Expires</Label>
            <NativeSelect id="key-expiry" name="expiresIn" defaultValue="never" disabled={noServers}>
              {API_KEY_EXPIRY_OPTIONS.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </NativeSelect>
          </div>
          <fieldset className="grid gap-3 md:col-span-2 md:grid-cols-3" disabled={noServers}>
            <legend className="mb-2 text-sm font-medium">Limits (optional)</legend>
            <div className="grid gap-2">
              <Label htmlFor="key-categories">Categories it may upload to</Label>
              <Input id="key-categories" name="categories" placeholder="phone_*, screenshots" autoComplete="off" aria-describedby="key-categories-hint" />
              <p id="key-categories-hint" className="text-xs text-muted-foreground">
                Comma separated; <code>phone_*</code> matches every category starting with phone_. Empty: any.
              </p>
            </div>
            <div className="grid gap-2">
              <Label htmlFor="key-max-size">Largest file (MB)</Label>
              <Input id="key-max-size" name="maxFileMb" type="number" min="0.1" step="0.1" inputMode="decimal" placeholder="Server's limit" aria-describedby="key-max-size-hint" />
              <p id="key-max-size-hint" className="text-xs text-muted-foreground">Below the server&apos;s own limit to matter. Empty: the server&apos;s.</p>
            </div>
            <div className="grid gap-2">
              <Label htmlFor="key-ips">Allowed addresses</Label>
              <Input id="key-ips" name="allowedIps" placeholder="203.0.113.7, 10.0.0.0/8" autoComplete="off" aria-describedby="key-ips-hint" />
              <p id="key-ips-hint" className="text-xs text-muted-foreground">Your game server&apos;s IP or a CIDR range. Empty: any address.</p>
            </div>
          </fieldset>
          <div className="md:col-span-2">
            <Button type="submit" disabled={noServers || busy}>
              <KeyRound aria-hidden /> {busy ? "Generating..." : "Generate API Key"}
            </Button>
          </div>
        </fetcher.Form>
        {noServers ? (
          <p className="mt-3 text-sm text-muted-foreground">
            {API_KEY_MESSAGES.noServers}{" "}
            <Link to="/servers?new=1" className="text-primary underline underline-offset-4">
              Create a server
            </Link>
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}
