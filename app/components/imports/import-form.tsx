import { useState, type ReactNode } from "react";
import { useFetcher } from "react-router";
import { NativeSelect } from "~/components/api-keys/native-select";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Textarea } from "~/components/ui/textarea";
import type { ActionResult } from "~/lib/action-result";
import { IMPORT_SOURCE_OPTIONS, type ImportSourceValue } from "~/lib/import-sources";

function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} className="text-sm text-destructive" role="alert">
      {message}
    </p>
  );
}

function Field({ name, label, hint, errors, children }: { name: string; label: string; hint?: string; errors: Record<string, string>; children: (props: { id: string; "aria-describedby"?: string; "aria-invalid"?: boolean }) => ReactNode }) {
  const id = `import-${name}`;
  const described = [hint ? `${id}-hint` : null, errors[name] ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      {children({ id, "aria-describedby": described, "aria-invalid": errors[name] ? true : undefined })}
      {hint ? (
        <p id={`${id}-hint`} className="text-sm text-muted-foreground">
          {hint}
        </p>
      ) : null}
      <FieldError id={`${id}-error`} message={errors[name]} />
    </div>
  );
}

/** The Import page's form: a server, a source and what that source needs; posts multipart so an export can ride along. */
export function ImportForm({ servers, maxArchiveMb }: { servers: Array<{ id: string; name: string }>; maxArchiveMb: number }) {
  const fetcher = useFetcher<ActionResult>();
  const [source, setSource] = useState<ImportSourceValue>("discord_export");
  const errors = fetcher.data?.errors ?? {};
  const busy = fetcher.state !== "idle";
  const option = IMPORT_SOURCE_OPTIONS.find((o) => o.value === source)!;
  const needsFile = source === "discord_export" || source === "zipline" || source === "folder";
  return (
    <Card>
      <CardHeader>
        <CardTitle>Start an import</CardTitle>
        <CardDescription>Files go through the same checks as uploads and count against your storage only once stored; the same file is never stored twice.</CardDescription>
      </CardHeader>
      <CardContent>
        <fetcher.Form method="post" encType="multipart/form-data" className="grid gap-4" aria-busy={busy}>
          <input type="hidden" name="intent" value="start" />
          <Field name="server_id" label="Into server" errors={errors}>
            {(props) => (
              <NativeSelect name="server_id" required {...props}>
                {servers.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.name}
                  </option>
                ))}
              </NativeSelect>
            )}
          </Field>
          <Field name="source" label="Source" hint={option.hint} errors={errors}>
            {(props) => (
              <NativeSelect name="source" value={source} onChange={(e) => setSource(e.target.value as ImportSourceValue)} {...props}>
                {IMPORT_SOURCE_OPTIONS.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </NativeSelect>
            )}
          </Field>
          {needsFile ? (
            <Field name="file" label={source === "zipline" ? "Zipline export (.json)" : source === "folder" ? "Files (.zip)" : "Export (.json or .zip)"} hint={`Up to ${maxArchiveMb} MB.`} errors={errors}>
              {(props) => <Input type="file" name="file" required accept={source === "folder" ? ".zip" : source === "zipline" ? ".json" : ".json,.zip"} {...props} />}
            </Field>
          ) : null}
          {source === "urls" ? (
            <Field name="urls" label="URLs" hint="One per line. Discord links expire: add a bot token below to refresh them." errors={errors}>
              {(props) => <Textarea name="urls" rows={8} required placeholder="https://cdn.discordapp.com/attachments/…" className="font-mono text-xs" {...props} />}
            </Field>
          ) : null}
          {source === "urls" ? (
            <Field name="hosts" label="Other hosts (optional)" hint="Your former host's name if the list has its links, e.g. i.my-old-host.com. Discord's and Fivemanage's need no naming." errors={errors}>
              {(props) => <Input name="hosts" placeholder="i.example.com" {...props} />}
            </Field>
          ) : null}
          {source === "discord_bot" ? (
            <Field name="channel_ids" label="Channel ids" hint="Right-click a channel in Discord (Developer Mode on) → Copy Channel ID. Separate several with commas." errors={errors}>
              {(props) => <Input name="channel_ids" required inputMode="numeric" {...props} />}
            </Field>
          ) : null}
          {source === "discord_export" || source === "urls" || source === "discord_bot" ? (
            <Field
              name="bot_token"
              label={source === "discord_bot" ? "Bot token" : "Bot token (optional)"}
              hint="Used for this import only and forgotten when it ends. The bot must be in your server; reading channels needs its Message Content intent."
              errors={errors}
            >
              {(props) => <Input name="bot_token" type="password" autoComplete="off" required={source === "discord_bot"} {...props} />}
            </Field>
          ) : null}
          {source === "fivemanage" ? (
            <Field name="api_key" label="Fivemanage API key" hint="Used for this import only and forgotten when it ends." errors={errors}>
              {(props) => <Input name="api_key" type="password" autoComplete="off" required {...props} />}
            </Field>
          ) : null}
          {source === "zipline" ? (
            <Field name="instance_url" label="Zipline address" hint="Where your Zipline instance answers, e.g. https://i.example.com." errors={errors}>
              {(props) => <Input name="instance_url" type="url" required placeholder="https://i.example.com" {...props} />}
            </Field>
          ) : null}
          <Field name="category" label="Category (optional)" hint="Discord files go to discord, others to imported, unless you name one." errors={errors}>
            {(props) => <Input name="category" placeholder={source === "discord_export" || source === "discord_bot" ? "discord" : "imported"} {...props} />}
          </Field>
          {fetcher.data && !fetcher.data.ok && fetcher.data.error && Object.keys(errors).length === 0 ? (
            <p className="text-sm text-destructive" role="alert">
              {fetcher.data.error}
            </p>
          ) : null}
          <div>
            <Button type="submit" disabled={busy || servers.length === 0}>
              {busy ? "Starting…" : "Start import"}
            </Button>
          </div>
        </fetcher.Form>
      </CardContent>
    </Card>
  );
}
