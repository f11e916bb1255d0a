import { deleteServerWithFiles } from "~/services/files/delete-files.server";
import { recordPortalAudit } from "~/http/portal-audit.server";
import { data, Link, redirect } from "react-router";
import { LoadError } from "~/components/portal/load-error";
import { PageHeader } from "~/components/portal/page-header";
import { DangerZone } from "~/components/servers/danger-zone";
import { RetentionRules } from "~/components/servers/retention-rules";
import { ServerQuickActions, ServerStats } from "~/components/servers/server-stats";
import { ServerSettingsCard, type ServerSettings } from "~/components/servers/server-settings-card";
import { StatusBadge } from "~/components/servers/server-card";
import { UploadVisibility } from "~/components/servers/upload-visibility";
import { WebhookCard } from "~/components/servers/webhook-card";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { formatCount } from "~/lib/format";
import { exactCategoryOptions } from "~/lib/categories";
import { GB } from "~/lib/plans";
import { parseServerForm, retentionRuleSchema, toFormResult } from "~/lib/server-form";
import { pageTitle } from "~/lib/site";
import { listStoredCategories } from "~/services/servers/categories.server";
import { requireTeam } from "~/http/guards.server";
import { refuseChange } from "~/http/refused-changes.server";
import { findTeamOwner } from "~/services/teams/teams.server";
import { actionFail, actionOk } from "~/http/action-results.server";
import { getAccountQuota } from "~/services/billing/quota.server";
import { deleteRetentionRule, listRetentionRules, upsertRetentionRule } from "~/services/retention/rules.server";
import {
  findServerForViewer,
  getServerUsage,
  rotateWebhookSecret,
  setDefaultVisibility,
  updateServerSettings,
  webhookUrl,
} from "~/services/servers/server-settings.server";
import { redirectWithToast } from "~/http/toast.server";
import type { Route } from "./+types/server-detail";
import { parseServerId } from "~/services/platform/ids.server";

export function meta({ data: loaderData, matches }: Route.MetaArgs) {
  const name = loaderData?.server?.name ?? "Server Not Found";
  return [{ title: pageTitle(name, matches[0]?.loaderData?.appName) }];
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user, team } = await requireTeam(request, context);
  const server = await findServerForViewer(context.db, { teamId: team.id, role: user.role }, parseServerId(params.serverId));
  if (!server) return data({ server: null }, { status: 404 });
  const underAdmin = new URL(request.url).pathname.startsWith("/admin/");
  // Each view under its own layout: a team's in the portal, an admin's look at another team's under Admin.
  if (server.team_id !== team.id && !underAdmin) throw redirect(`/admin/servers/${server.id}`);
  if (server.team_id === team.id && underAdmin) throw redirect(`/servers/${server.id}`);
  const [usage, quota, rules, categories] = await Promise.all([
    getServerUsage(context.db, server.id),
    getAccountQuota(context.db, server.team_id),
    listRetentionRules(context.db, server.id),
    listStoredCategories(context.db, { serverId: server.id }),
  ]);
  const { webhook_secret: _secret, ...visible } = server;
  // An admin looking at someone else's server sees whose it is and cannot change it here (nor learn its webhook secret).
  const owner = server.team_id === team.id ? null : await findTeamOwner(context.db, server.team_id);
  const canManage = !owner && team.permissions.includes("manage_servers");
  return {
    server: visible,
    usage,
    quotaGb: quota.quotaBytes / GB,
    rules,
    categories: exactCategoryOptions(categories),
    webhookUrl: canManage ? webhookUrl(context.config.appUrl, server) : null,
    adminView: owner ? { ownerName: owner.display_name ?? "Unnamed User", ownerEmail: owner.email ?? "no e-mail" } : null,
    canManage,
  };
}

const NOT_FOUND = "Server Not Found";
const ADMIN_READ_ONLY = "Another owner's server is read-only here. Delete it from Admin → All Servers if you must.";

/** What each of the page's forms records on the audit trail. */
const SERVER_ACTIONS = {
  update: "server.update",
  delete: "server.delete",
  visibility: "server.update",
  "retention-save": "server.retention",
  "retention-delete": "server.retention",
  "webhook-rotate": "server.webhook_rotate",
} as const;

export async function action({ request, context, params }: Route.ActionArgs) {
  const auth = await requireTeam(request, context);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const db = context.db;
  const server = await findServerForViewer(db, { teamId: auth.team.id, role: auth.user.role }, parseServerId(params.serverId));
  if (!server) return actionFail("Error", NOT_FOUND, 404);
  if (server.team_id !== auth.team.id) return actionFail("Error", ADMIN_READ_ONLY, 403);
  // An own property only: "constructor" or "toString" are no action.
  if (!Object.hasOwn(SERVER_ACTIONS, intent)) return actionFail("Error updating server", "Unknown action.", 400);
  const serverIntent = intent as keyof typeof SERVER_ACTIONS;
  if (!auth.team.permissions.includes("manage_servers")) {
    return refuseChange(context, auth, { action: SERVER_ACTIONS[serverIntent], target: server.name, serverId: server.id, permission: "manage_servers" });
  }
  const ownerId = server.team_id;

  switch (serverIntent) {
    case "update": {
      const parsed = parseServerForm(form, "Error updating server");
      if (!parsed.ok) return actionFail(parsed.first.toastTitle, parsed.first.message, 400, parsed.errors);
      try {
        await updateServerSettings(db, ownerId, server.id, parsed.data);
      } catch (error) {
        context.logger.error({ err: error }, "server update failed");
        return actionFail("Error", "Failed to update server settings.", 500);
      }
      await recordPortalAudit(context, auth, { action: "server.update", target: parsed.data.name, serverId: server.id });
      return actionOk({ type: "success", title: "Server updated", description: "Your server settings have been saved." }, { saved: true });
    }
    case "delete": {
      if (form.get("confirm") !== "yes") return actionFail("Error deleting server", "Please confirm the deletion.", 400);
      try {
        await deleteServerWithFiles(db, context.blobs, server.id, {
          ownerId,
          onBlobError: (key, err) => context.logger.warn({ err, key }, "blob delete failed after server delete"),
        });
      } catch (error) {
        context.logger.error({ err: error }, "server delete failed");
        return actionFail("Error", "Failed to delete server.", 500);
      }
      await recordPortalAudit(context, auth, { action: "server.delete", target: server.name });
      return redirectWithToast("/servers", { type: "success", title: "Server deleted", description: `Server "${server.name}" has been deleted.` });
    }
    case "visibility": {
      const isPublic = form.get("defaultPublic") === "public";
      await setDefaultVisibility(db, ownerId, server.id, isPublic);
      await recordPortalAudit(context, auth, { action: "server.update", target: server.name, serverId: server.id, detail: { default_public: isPublic } });
      return actionOk({
        type: "success",
        title: "Server updated",
        description: isPublic ? "New uploads are public by default." : "New uploads are private by default.",
      });
    }
    case "retention-save": {
      const parsed = toFormResult(retentionRuleSchema.safeParse({ category: form.get("category") ?? "", days: form.get("days") ?? "" }), "Error updating server");
      if (!parsed.ok) return actionFail("Error updating server", parsed.first.message, 400, parsed.errors);
      await upsertRetentionRule(db, server.id, parsed.data);
      await recordPortalAudit(context, auth, { action: "server.retention", target: server.name, serverId: server.id, detail: parsed.data });
      return actionOk({
        type: "success",
        title: "Server updated",
        description: `Files in "${parsed.data.category}" will be deleted after ${parsed.data.days} days.`,
      });
    }
    case "retention-delete": {
      await deleteRetentionRule(db, server.id, String(form.get("category") ?? ""));
      await recordPortalAudit(context, auth, { action: "server.retention", target: server.name, serverId: server.id, detail: { category: String(form.get("category") ?? ""), days: null } });
      return actionOk({ type: "success", title: "Server updated", description: "Retention rule removed." });
    }
    case "webhook-rotate": {
      const secret = await rotateWebhookSecret(db, ownerId, server.id);
      if (secret) context.knownCredentials.rememberWebhook(server.id, secret);
      await recordPortalAudit(context, auth, { action: "server.webhook_rotate", target: server.name, serverId: server.id });
      return actionOk({ type: "success", title: "Server updated", description: "A new webhook URL was created; the old one no longer works." });
    }
  }
}

export default function ServerDetail({ loaderData }: Route.ComponentProps) {
  if (!loaderData.server) {
    return (
      <div className="mx-auto flex max-w-md flex-col items-center gap-3 py-16 text-center">
        <h1 className="text-2xl font-bold">{NOT_FOUND}</h1>
        <p className="text-muted-foreground">This server does not exist or does not belong to your account.</p>
        <Button asChild variant="outline">
          <Link to="/servers">Back to My Servers</Link>
        </Button>
      </div>
    );
  }
  const { server, usage, quotaGb, rules, categories, webhookUrl: hookUrl, adminView, canManage } = loaderData;
  if (adminView) {
    const note = `Admin view of ${adminView.ownerName}'s server (${adminView.ownerEmail}). Read-only: its owner makes changes; deleting it is on All Servers.`;
    return <ReadOnlyServerView server={server} usage={usage} quotaGb={quotaGb} rules={rules} note={note} back={{ to: "/admin/servers", label: "All servers (admin)" }} />;
  }
  if (!canManage) {
    const note = "Read-only: your role in this team can see this server but not change it (that needs the Manage servers permission).";
    return <ReadOnlyServerView server={server} usage={usage} quotaGb={quotaGb} rules={rules} note={note} back={{ to: "/servers", label: "All servers" }} />;
  }
  return (
    <div className="space-y-6">
      <ServerPageHeader server={server} back={{ to: "/servers", label: "All servers" }} />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <ServerSettingsCard server={server} />
          <UploadVisibility defaultPublic={server.default_public} />
          <RetentionRules rules={rules} categories={categories} />
          {hookUrl ? <WebhookCard url={hookUrl} /> : null}
        </div>
        <div className="space-y-6">
          <ServerStats usedBytes={usage.usedBytes} fileCount={usage.fileCount} quotaGb={quotaGb} allowedTypes={server.allowed_file_types.length} createdAt={server.created_at} />
          <ServerQuickActions serverId={server.id} active={server.status === "active"} />
          <DangerZone />
        </div>
      </div>
    </div>
  );
}

/** The server's name, status and id, with the way back to the list it came from. */
function ServerPageHeader({ server, back }: { server: { id: string; name: string; status: string }; back: { to: string; label: string } }) {
  return (
    <PageHeader
      title={server.name}
      description={
        <span className="inline-flex flex-wrap items-center gap-2">
          <StatusBadge status={server.status} />
          <span className="font-mono text-xs">ID: {server.id}</span>
        </span>
      }
      actions={
        <Button asChild variant="outline" size="sm">
          <Link to={back.to}>{back.label}</Link>
        </Button>
      }
    />
  );
}

/** A server seen read-only: by a site admin (another team's) or by a member who may not manage servers. */
function ReadOnlyServerView(props: {
  server: ServerSettings & { id: string; status: string; default_public: boolean; created_at: Date | string };
  usage: { usedBytes: number; fileCount: number };
  quotaGb: number;
  rules: { category: string; days: number }[];
  note: string;
  back: { to: string; label: string };
}) {
  const { server, usage, quotaGb, rules } = props;
  return (
    <div className="space-y-6">
      <ServerPageHeader server={server} back={props.back} />
      <p role="note" className="rounded-md border border-primary/40 bg-primary/10 p-3 text-sm" data-testid="admin-view">
        {props.note}
      </p>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <ServerSettingsCard server={server} readOnly />
          <Card>
            <CardHeader>
              <CardTitle>Uploads and retention</CardTitle>
            </CardHeader>
            <CardContent className="space-y-2 text-sm">
              <p>{`New uploads are ${server.default_public ? "public" : "private"} by default.`}</p>
              {rules.length === 0 ? (
                <p className="text-muted-foreground">No retention rules: files follow the owner's plan.</p>
              ) : (
                <ul className="list-inside list-disc">
                  {rules.map((rule) => (
                    <li key={rule.category}>{`${rule.category}: deleted after ${formatCount(rule.days, "day")}`}</li>
                  ))}
                </ul>
              )}
            </CardContent>
          </Card>
        </div>
        <ServerStats usedBytes={usage.usedBytes} fileCount={usage.fileCount} quotaGb={quotaGb} allowedTypes={server.allowed_file_types.length} createdAt={server.created_at} />
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <LoadError title="Error loading servers" fallback="Failed to load servers" />;
}
