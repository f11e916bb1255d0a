import { apiSuccess } from "~/http/api-response.server";
import { readSmallBody } from "~/http/small-body.server";
import { requireActiveServer } from "~/services/api-keys/key-auth.server";
import { assertCategoryInScope } from "~/services/api-keys/key-scopes.server";
import { withApiKey } from "~/http/api-route.server";
import { fileUrl } from "~/services/files/file-views.server";
import { createUploadGrant, parsePresignInput } from "~/services/uploads/upload-grants.server";
import { loadUploadTarget } from "~/services/uploads/store-upload.server";
import { keySource } from "~/services/uploads/upload-targets.server";
import type { Route } from "./+types/upload-presign";

async function presign({ request, context }: Route.LoaderArgs | Route.ActionArgs) {
  return withApiKey(context, request, { action: "upload.presign", permission: "upload" }, async (caller, audit) => {
    requireActiveServer(caller.serverStatus);
    const target = await loadUploadTarget(context.db, context.config.maxUploadBytes, caller.serverId, keySource(caller));
    const input = {
      ...Object.fromEntries(new URL(request.url).searchParams),
      ...(request.method === "GET" ? {} : await readSmallBody(request)),
    } as Record<string, unknown>;
    const { expiresIn, constraints } = parsePresignInput(
      {
        expiresIn: input.expires_in ?? input.expiresIn,
        category: input.category,
        playerName: input.player_name ?? input.playerName,
        playerIdentifier: input.player_identifier ?? input.playerIdentifier,
        maxSizeMb: input.max_size_mb ?? input.maxSizeMb,
        fileType: input.mime_type ?? input.mimeType ?? input.content_type ?? input.contentType ?? input.file_type ?? input.fileType,
      },
      Math.min(target.maxBytes, caller.scopes.maxFileBytes ?? target.maxBytes),
    );
    assertCategoryInScope(caller.scopes, constraints.category!);
    const { token, expiresAt } = await createUploadGrant(context.db, { serverId: caller.serverId, apiKeyId: caller.keyId, expiresIn, constraints });
    const url = `${context.config.appUrl}/api/upload/presigned/${token}`;
    // Where the file will be, known now: LB Phone's GetPresignedUrl hands it to the phone as `result`.
    const place = { server_id: caller.serverId, category: constraints.category!, filename: constraints.filename! };
    const publicUrl = fileUrl(context.config.cdnBaseUrl, place);
    audit.name(`${place.category}/${place.filename}`, { category: place.category, filename: place.filename, expires_at: expiresAt.toISOString() });
    return apiSuccess({
      url,
      presignedUrl: url,
      upload_url: url,
      upload: url,
      result: publicUrl,
      public_url: publicUrl,
      fileUrl: publicUrl,
      category: place.category,
      filename: place.filename,
      method: "POST",
      methods: ["POST", "PUT"],
      field: "file",
      expires_in: expiresIn,
      expires_at: expiresAt.toISOString(),
      data: { url: publicUrl, public_url: publicUrl, presignedUrl: url, upload_url: url, expires_at: expiresAt.toISOString() },
    });
  });
}

export const loader = presign;
export const action = presign;
