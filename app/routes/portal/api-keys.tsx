import { useState } from "react";
import { IntegrationGuide } from "~/components/api-keys/integration-guide";
import { KeyBanner } from "~/components/api-keys/key-banner";
import { KeyList } from "~/components/api-keys/key-list";
import { NewKeyForm, type RevealedKey } from "~/components/api-keys/new-key-form";
import { LoadError } from "~/components/portal/load-error";
import { PageHeader } from "~/components/portal/page-header";
import { API_KEY_EXPIRY_OPTIONS, API_KEY_MESSAGES, grantableKeyPermissions } from "~/lib/api-key-status";
import { sanitizeInput } from "~/lib/sanitize";
import { pageTitle } from "~/lib/site";
import { assertKeyWithinMaker, createApiKey, deleteApiKey, findApiKeyForTeam, listApiKeys, regenerateApiKey } from "~/services/api-keys/keys.server";
import { ERROR_STATUS } from "~/http/api-response.server";
import { recordKeyEvent, recordKeyRefusal } from "~/http/portal-audit.server";
import { keyEvent } from "~/services/api-keys/key-manager.server";
import { parseKeyScopes } from "~/services/api-keys/key-scopes.server";
import { requireTeam } from "~/http/guards.server";
import { countCallsByKey } from "~/services/api-keys/key-usage.server";
import { isDomainError } from "~/services/platform/domain-error.server";
import { actionFail, actionOk } from "~/http/action-results.server";
import { findServerForTeam, listServersForTeam } from "~/services/servers/servers.server";
import type { Route } from "./+types/api-keys";
import { DAY_MS } from "~/lib/durations";
import type { ApiKeyId } from "~/lib/ids";
import { parseId, parseServerId } from "~/services/platform/ids.server";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("API Keys", matches[0]?.loaderData?.appName) }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { team } = await requireTeam(request, context, "manage_keys");
  const [servers, keys, calls] = await Promise.all([
    listServersForTeam(context.db, team.id),
    listApiKeys(context.db, team.id),
    countCallsByKey(context.db, team.id, new Date(Date.now() - CALLS_WINDOW_DAYS * DAY_MS)),
  ]);
  const names = new Map(servers.map((s) => [s.id, s.name]));
  const wanted = new URL(request.url).searchParams.get("server");
  return {
    appName: context.config.APP_NAME,
    baseUrl: context.config.appUrl,
    servers: servers.map((s) => ({ id: s.id, name: s.name })),
    selectedServerId: servers.find((s) => s.id === wanted)?.id ?? servers[0]?.id ?? null,
    // A key can do only what the member making it may do.
    grantable: grantableKeyPermissions(team.permissions),
    keys: keys.map((k) => ({
      id: k.id,
      name: k.name,
      serverId: k.server_id,
      serverName: names.get(k.server_id) ?? "Unknown server",
      keyPrefix: k.key_prefix,
      status: k.status,
      permissions: k.permissions,
      expiresAt: k.expires_at,
      lastUsedAt: k.last_used_at,
      calls30d: calls.get(k.id) ?? 0,
      createdAt: k.created_at,
      categories: k.allowed_categories,
      maxFileBytes: k.max_file_bytes,
      allowedIps: k.allowed_ips,
    })),
  };
}

/** The list shows each key's calls over this many days. */
const CALLS_WINDOW_DAYS = 30;

/** The expiry chosen at creation: null for "never", undefined for a choice the form does not offer. */
function keyExpiry(choice: string): Date | null | undefined {
  const option = API_KEY_EXPIRY_OPTIONS.find((o) => o.value === choice);
  if (!option) return undefined;
  return option.value === "never" ? null : new Date(Date.now() + Number(option.value) * DAY_MS);
}

const FAILURES: Record<string, [string, string]> = {
  create: ["Error creating API key", "Failed to create API key"],
  regenerate: ["Error regenerating API key", "Failed to regenerate API key"],
  delete: ["Error deleting API key", "Failed to delete API key"],
};

export async function action({ request, context }: Route.ActionArgs) {
  const auth = await requireTeam(request, context, "manage_keys");
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  try {
    if (intent === "create") {
      const name = sanitizeInput(String(form.get("name") ?? ""));
      const serverId = String(form.get("serverId") ?? "");
      if (!name || !serverId) return actionFail(API_KEY_MESSAGES.missing.title, API_KEY_MESSAGES.missing.description, 400);
      if (name.length > 100) return actionFail("Error creating API key", "Key names can be at most 100 characters.", 400);
      const permissions = form.getAll("permissions").map(String);
      if (permissions.length === 0) return actionFail("Error creating API key", API_KEY_MESSAGES.noPermissions, 400);
      const expiresAt = keyExpiry(String(form.get("expiresIn") ?? "never"));
      if (expiresAt === undefined) return actionFail("Error creating API key", API_KEY_MESSAGES.badExpiry, 400);
      const server = await findServerForTeam(context.db, auth.team.id, parseServerId(serverId));
      if (!server) return actionFail("Error creating API key", "Server not found", 404);
      let created: Awaited<ReturnType<typeof createApiKey>>;
      try {
        assertKeyWithinMaker(permissions, auth.team);
        const scopes = parseKeyScopes({ categories: String(form.get("categories") ?? ""), max_file_mb: String(form.get("maxFileMb") ?? ""), allowed_ips: String(form.get("allowedIps") ?? "") });
        created = await createApiKey(context.db, { serverId: server.id, teamId: auth.team.id, name, permissions, expiresAt, scopes });
      } catch (error) {
        if (!isDomainError(error, "invalid_request", "permission_denied")) throw error;
        if (error.code === "permission_denied") await recordKeyRefusal(context, auth, { action: "key.create", target: name, serverId: server.id }, error);
        return actionFail("Error creating API key", error.message, ERROR_STATUS[error.code]);
      }
      context.knownCredentials.rememberApiKey(created.secret);
      await recordKeyEvent(context, auth, keyEvent("key.create", created.key));
      return actionOk(
        { type: "success", title: "API key created", description: "Copy it now: it will not be shown again." },
        { secret: created.secret, keyName: created.key.name, serverId: server.id },
      );
    }
    const keyId = parseId<ApiKeyId>(form.get("keyId"));
    if (intent === "regenerate") {
      const existing = keyId ? await findApiKeyForTeam(context.db, auth.team.id, keyId) : undefined;
      if (!existing) return actionFail("Error regenerating API key", "Failed to regenerate API key", 404);
      // The new secret goes to this member: the key may carry only what they may do.
      try {
        assertKeyWithinMaker(existing.permissions, auth.team);
      } catch (error) {
        if (!isDomainError(error, "permission_denied")) throw error;
        await recordKeyRefusal(context, auth, { action: "key.regenerate", target: existing.name, serverId: existing.server_id }, error);
        return actionFail("Error regenerating API key", error.message, 403);
      }
      const regenerated = await regenerateApiKey(context.db, auth.team.id, existing.id);
      if (!regenerated) return actionFail("Error regenerating API key", "Failed to regenerate API key", 404);
      context.knownCredentials.rememberApiKey(regenerated.secret);
      await recordKeyEvent(context, auth, keyEvent("key.regenerate", regenerated.key));
      return actionOk(
        { type: "success", title: "API key regenerated", description: "The old key stopped working. Copy the new one now." },
        { secret: regenerated.secret, keyName: regenerated.key.name, serverId: regenerated.key.server_id },
      );
    }
    if (intent === "delete") {
      const key = keyId ? await findApiKeyForTeam(context.db, auth.team.id, keyId).catch(() => undefined) : undefined;
      const deleted = key ? await deleteApiKey(context.db, auth.team.id, key.id) : false;
      if (!key || !deleted) return actionFail("Error deleting API key", "Failed to delete API key", 404);
      await recordKeyEvent(context, auth, keyEvent("key.delete", key));
      return actionOk({ type: "success", title: "API key deleted", description: "The key no longer works." });
    }
    return actionFail("Error", "Unknown action.", 400);
  } catch (error) {
    context.logger.error({ err: error, intent }, "api key action failed");
    const [title, message] = FAILURES[intent] ?? FAILURES.delete!;
    return actionFail(title, message, 500);
  }
}

export default function ApiKeys({ loaderData }: Route.ComponentProps) {
  const { servers, keys, selectedServerId, grantable, baseUrl, appName } = loaderData;
  const [revealed, setRevealed] = useState<RevealedKey | null>(null);
  const [guideServerId, setGuideServerId] = useState<string | null>(selectedServerId);
  const onSecret = (value: RevealedKey) => {
    setRevealed(value);
    setGuideServerId(value.serverId);
  };
  return (
    <div className="space-y-6">
      <PageHeader title="API Keys" description="Keys let your game server's scripts upload and fetch files." />
      {revealed ? <KeyBanner secret={revealed.secret} keyName={revealed.keyName} onDismiss={() => setRevealed(null)} /> : null}
      <NewKeyForm servers={servers} selectedServerId={selectedServerId} grantable={grantable} onCreated={onSecret} />
      <KeyList keys={keys} onRegenerated={onSecret} />
      <IntegrationGuide
        baseUrl={baseUrl}
        appName={appName}
        servers={servers}
        serverId={guideServerId}
        onServerChange={setGuideServerId}
        apiKey={revealed && revealed.serverId === guideServerId ? revealed.secret : null}
      />
    </div>
  );
}

export function ErrorBoundary() {
  return <LoadError title="Error loading API keys" fallback="Failed to load API keys" />;
}
