import { KeyRound } from "lucide-react";
import { useEffect, useRef } from "react";
import { Link, useFetcher } from "react-router";
import { showToast } from "~/lib/toast";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import type { ActionResult } from "~/lib/action-result";
import { API_KEY_MESSAGES } from "~/lib/api-key-status";
import { NativeSelect } from "~/components/api-keys/native-select";

export interface RevealedKey {
  secret: string;
  keyName: string;
  serverId: string;
}

export function NewKeyForm({
  servers,
  selectedServerId,
  onCreated,
}: {
  servers: { id: string; name: string }[];
  selectedServerId: string | null;
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
        <CardDescription>Keys can upload and read files of one server.</CardDescription>
      </CardHeader>
      <CardContent>
        <fetcher.Form
          method="post"
          ref={formRef}
          noValidate
          className="grid gap-4 md:grid-cols-[1fr_1fr_auto] md:items-end"
          onSubmit={(event) => {
            const data = new FormData(event.currentTarget);
            if (!String(data.get("name") ?? "").trim() || !data.get("serverId")) {
              event.preventDefault();
              showToast({ type: "error", ...API_KEY_MESSAGES.missing });
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
          <Button type="submit" disabled={noServers || busy}>
            <KeyRound aria-hidden /> {busy ? "Generating..." : "Generate API Key"}
          </Button>
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
