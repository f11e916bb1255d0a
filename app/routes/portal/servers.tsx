import { Plus, Server as ServerIcon, X } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Link, useActionData, useFetcher, useSearchParams } from "react-router";
import { LoadError } from "~/components/portal/load-error";
import { PageHeader } from "~/components/portal/page-header";
import { ServerCard } from "~/components/servers/server-card";
import { EMPTY_SERVER_FORM, ServerFormFields, useServerFormCheck } from "~/components/servers/server-form-fields";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { CREATE_INPUT_MAX_MB, parseServerForm } from "~/lib/server-form";
import { pageTitle } from "~/lib/site";
import { requireTeam } from "~/http/guards.server";
import { actionFail, actionOk } from "~/http/action-results.server";
import { createServerWithinQuota, listServersWithUsage } from "~/services/servers/server-settings.server";
import { recordPortalAudit } from "~/http/portal-audit.server";
import type { Route } from "./+types/servers";
import { isDomainError } from "~/services/platform/domain-error.server";
import { ERROR_STATUS } from "~/http/api-response.server";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("My Servers", matches[0]?.loaderData?.appName) }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { team } = await requireTeam(request, context);
  return { servers: await listServersWithUsage(context.db, team.id), canManage: team.permissions.includes("manage_servers") };
}

export async function action({ request, context }: Route.ActionArgs) {
  const auth = await requireTeam(request, context, "manage_servers");
  const form = await request.formData();
  const parsed = parseServerForm(form, "Error creating server");
  if (!parsed.ok) return actionFail(parsed.first.toastTitle, parsed.first.message, 400, parsed.errors);
  try {
    const server = await createServerWithinQuota(context.db, auth.team.id, parsed.data);
    context.knownCredentials.rememberWebhook(server.id, server.webhook_secret);
    await recordPortalAudit(context, auth, { action: "server.create", target: server.name, serverId: server.id });
    return actionOk({ type: "success", title: "Server created", description: `Server "${server.name}" has been created successfully.` }, { serverId: server.id });
  } catch (error) {
    if (isDomainError(error, "server_quota_exceeded")) return actionFail("Error creating server", error.message, ERROR_STATUS[error.code]);
    context.logger.error({ err: error }, "server create failed");
    return actionFail("Error creating server", "Failed to create server.", 500);
  }
}

function CreateServerCard({ defaultOpen }: { defaultOpen: boolean }) {
  const fetcher = useFetcher<typeof action>();
  // Without JavaScript the form posts as a document request and the answer arrives as action data.
  const actionData = useActionData<typeof action>();
  const result = fetcher.data ?? actionData;
  const formRef = useRef<HTMLFormElement>(null);
  const [open, setOpen] = useState(defaultOpen || actionData?.ok === false);
  const { clientErrors, resetClientErrors, onChange, onSubmit } = useServerFormCheck("Error creating server");
  const [, setSearchParams] = useSearchParams();
  const busy = fetcher.state !== "idle";

  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) {
      formRef.current?.reset();
      setOpen(false);
    }
  }, [fetcher.state, fetcher.data]);

  const close = () => {
    setOpen(false);
    resetClientErrors();
    setSearchParams((p) => (p.delete("new"), p), { replace: true, preventScrollReset: true });
  };

  if (!open) {
    return (
      <Card className="flex min-h-52 items-center justify-center border-dashed">
        <Button asChild variant="ghost" className="h-full w-full flex-col gap-2 py-10">
          <Link
            to="?new=1"
            preventScrollReset
            onClick={(e) => {
              e.preventDefault();
              setOpen(true);
            }}
          >
            <Plus className="size-8!" aria-hidden />
            <span className="text-base font-semibold">Add New Server</span>
          </Link>
        </Button>
      </Card>
    );
  }

  const errors = { ...(result && !result.ok ? result.errors : {}), ...clientErrors };
  const formError = result && !result.ok && !result.errors ? result.error : null;
  return (
    <Card className="md:col-span-2 xl:col-span-3">
      <CardHeader className="flex flex-row items-start justify-between gap-2 space-y-0">
        <div className="space-y-1.5">
          <CardTitle>Add New Server</CardTitle>
          <CardDescription>Register a game server to upload and serve its media.</CardDescription>
        </div>
        <Button type="button" variant="ghost" size="icon" aria-label="Close form" onClick={close}>
          <X aria-hidden />
        </Button>
      </CardHeader>
      <CardContent>
        <fetcher.Form
          method="post"
          ref={formRef}
          noValidate
          onChange={onChange}
          onSubmit={onSubmit}
          className="space-y-6"
        >
          <ServerFormFields idPrefix="create" defaults={EMPTY_SERVER_FORM} errors={errors} maxSizeInput={CREATE_INPUT_MAX_MB} />
          {formError ? (
            <p role="alert" className="rounded-md border border-destructive/50 bg-destructive/10 p-3 text-sm text-destructive">
              {formError}
            </p>
          ) : null}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button type="button" variant="outline" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {busy ? "Creating..." : "Create Server"}
            </Button>
          </div>
        </fetcher.Form>
      </CardContent>
    </Card>
  );
}

export default function Servers({ loaderData }: Route.ComponentProps) {
  const { servers, canManage } = loaderData;
  const [searchParams] = useSearchParams();
  return (
    <div>
      <PageHeader title="My Servers" description="Manage your game servers and their media settings." />
      {servers.length === 0 ? (
        <div className="mb-6 flex flex-col items-center gap-2 rounded-lg border border-dashed p-8 text-center">
          <ServerIcon className="size-10 text-muted-foreground" aria-hidden />
          <h2 className="text-lg font-semibold">No servers yet</h2>
          <p className="text-sm text-muted-foreground">
            {canManage ? "Create your first server to start uploading media." : "An owner, admin or developer of this team creates its servers."}
          </p>
        </div>
      ) : null}
      <div className="grid grid-cols-1 gap-4 md:grid-cols-2 xl:grid-cols-3">
        {servers.map((server) => (
          <ServerCard key={server.id} server={server} />
        ))}
        {canManage ? <CreateServerCard defaultOpen={searchParams.get("new") === "1"} /> : null}
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <LoadError title="Error loading servers" fallback="Failed to load servers" />;
}
