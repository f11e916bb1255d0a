import { DomainError } from "~/services/platform/domain-error.server";
import { methodNotAllowed } from "~/http/api-response.server";
import { readSmallBody } from "~/http/small-body.server";
import { finishUpload, receiveUpload } from "~/http/upload-request.server";
import { acceptCredential, reserveCredentialAttempt } from "~/services/api-keys/key-auth.server";
import { runApi } from "~/http/api-route.server";
import { webhookCredentialHash } from "~/services/api-keys/known-credentials.server";
import { bumpUsage } from "~/services/api-keys/key-usage.server";
import { prepareUploadTarget, WEBHOOK_SOURCE } from "~/services/uploads/upload-targets.server";
import { discardUploads } from "~/services/uploads/store-upload.server";
import { discordMessage, findWebhookServer, parseWebhookPayload, WEBHOOK_CATEGORY } from "~/services/uploads/discord-webhooks.server";
import { fileUrl } from "~/services/files/file-views.server";
import { discordLogEntry } from "~/services/logs/log-parsing.server";
import { DISCORD_DATASET } from "~/services/logs/log-datasets.server";
import { ingestLogs, logTargetOfServer } from "~/services/logs/log-ingest.server";
import type { Route } from "./+types/webhook";
import { parseServerId } from "~/services/platform/ids.server";

/**
 * POST /api/webhooks/{server_id}/{secret}: what a script would send to a Discord webhook. Files are
 * stored as uploads; the message itself (content, embeds) becomes a log entry in the `discord`
 * dataset. A message without files answers like Discord: 204, or the message with `?wait=true`.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST, OPTIONS", "Use POST");
  return runApi(context, async () => {
    const credential = webhookCredentialHash(params.serverId, params.secret);
    await reserveCredentialAttempt(context, context.clientIp, credential);
    const server = await findWebhookServer(context.db, parseServerId(params.serverId), params.secret);
    if (!server) throw new DomainError("not_found", "Unknown Webhook");
    await acceptCredential(context, context.clientIp, credential);
    await bumpUsage(context.db, server.id, { api_calls: 1 });

    let files: Awaited<ReturnType<typeof finishUpload>> = [];
    let payload;
    if ((request.headers.get("content-type") ?? "").toLowerCase().startsWith("multipart/form-data")) {
      const target = await prepareUploadTarget(context, server.id, WEBHOOK_SOURCE);
      const received = await receiveUpload(context, request, target, { allowNoFiles: true });
      try {
        payload = parseWebhookPayload(received.formFields);
      } catch (error) {
        await discardUploads(context, received.uploads);
        throw error;
      }
      const metadata = { source: "discord_webhook", ...(payload.content ? { content: payload.content } : {}), ...(payload.username ? { username: payload.username } : {}) };
      files = await finishUpload(context, target, received.uploads, {
        ...received.fields,
        category: received.fields.category ?? WEBHOOK_CATEGORY,
        metadata: received.fields.metadata ?? metadata,
      });
    } else {
      payload = parseWebhookPayload(await readSmallBody(request));
    }
    const entry = discordLogEntry(payload, new Date());
    if (entry) {
      if (files.length) entry.metadata = { ...entry.metadata, files: files.map((f) => fileUrl(context.config.cdnBaseUrl, f)) };
      await ingestLogs(context.db, context.logVolume, await logTargetOfServer(context.db, server.id), [entry], DISCORD_DATASET);
    }
    if (files.length === 0 && new URL(request.url).searchParams.get("wait") !== "true") return new Response(null, { status: 204 });
    return Response.json(discordMessage(context.config.cdnBaseUrl, server.id, server.name, payload, files), { headers: { "Cache-Control": "no-store" } });
  });
}

export function loader() {
  return methodNotAllowed("POST, OPTIONS", "Use POST");
}
