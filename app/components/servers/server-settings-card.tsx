import { Pencil } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import type { ActionResult } from "~/lib/action-result";
import { EDIT_INPUT_MAX_MB } from "~/lib/server-form";
import { AllowedTypesByGroup } from "~/components/servers/file-type-picker";
import { ServerFormFields, useServerFormCheck } from "~/components/servers/server-form-fields";

export interface ServerSettings {
  name: string;
  description: string | null;
  endpoint_url: string | null;
  max_file_size_mb: number;
  allowed_file_types: string[];
}

/** View mode, or edit mode whose Cancel throws the edits away (the stored values come back). */
export function ServerSettingsCard({ server, readOnly = false }: { server: ServerSettings; readOnly?: boolean }) {
  const fetcher = useFetcher<ActionResult & { saved?: boolean }>();
  const [editing, setEditing] = useState(false);
  const { clientErrors, resetClientErrors, onChange, onSubmit } = useServerFormCheck("Error updating server");
  const editButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.saved) setEditing(false);
  }, [fetcher.state, fetcher.data]);

  const cancel = () => {
    setEditing(false);
    resetClientErrors();
    requestAnimationFrame(() => editButton.current?.focus());
  };
  const busy = fetcher.state !== "idle";
  const errors = { ...(fetcher.data && !fetcher.data.ok ? fetcher.data.errors : {}), ...clientErrors };

  return (
    <Card>
      <CardHeader className="flex flex-row items-start justify-between gap-2 space-y-0">
        <div className="space-y-1.5">
          <CardTitle>Server Settings</CardTitle>
          <CardDescription>Name, endpoint and upload limits.</CardDescription>
        </div>
        {!editing && !readOnly ? (
          <Button ref={editButton} variant="outline" size="sm" onClick={() => setEditing(true)}>
            <Pencil aria-hidden /> Edit Settings
          </Button>
        ) : null}
      </CardHeader>
      <CardContent>
        {editing ? (
          <fetcher.Form
            method="post"
            noValidate
            className="space-y-6"
            onChange={onChange}
            onSubmit={onSubmit}
          >
            <input type="hidden" name="intent" value="update" />
            <ServerFormFields
              idPrefix="edit"
              defaults={{
                name: server.name,
                description: server.description,
                endpointUrl: server.endpoint_url,
                maxFileSizeMb: server.max_file_size_mb,
                allowedFileTypes: server.allowed_file_types,
              }}
              errors={errors}
              maxSizeInput={EDIT_INPUT_MAX_MB}
            />
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Button type="button" variant="outline" onClick={cancel}>
                Cancel
              </Button>
              <Button type="submit" disabled={busy}>
                {busy ? "Saving..." : "Save Changes"}
              </Button>
            </div>
          </fetcher.Form>
        ) : (
          <dl className="grid gap-4 text-sm sm:grid-cols-2" data-testid="server-settings">
            <div>
              <dt className="text-muted-foreground">Server Name</dt>
              <dd className="font-medium break-words">{server.name}</dd>
            </div>
            <div>
              <dt className="text-muted-foreground">Max File Size</dt>
              <dd className="font-medium">{server.max_file_size_mb} MB</dd>
            </div>
            <div className="sm:col-span-2">
              <dt className="text-muted-foreground">Description</dt>
              <dd className="break-words">{server.description || "No description"}</dd>
            </div>
            <div className="sm:col-span-2">
              <dt className="text-muted-foreground">Endpoint URL</dt>
              <dd className="break-all font-mono text-xs">{server.endpoint_url || "Not set"}</dd>
            </div>
            <div className="sm:col-span-2">
              <dt className="mb-1 text-muted-foreground">Allowed File Types</dt>
              <dd>
                <AllowedTypesByGroup allowed={server.allowed_file_types} />
              </dd>
            </div>
          </dl>
        )}
      </CardContent>
    </Card>
  );
}
