import { Readable } from "node:stream";
import type { S3BlobStore } from "../../storage/s3";
import { apiError, apiSuccess, errorResponse } from "~/http/api-response.server";
import { ERRORS } from "~/services/platform/domain-error.server";
import type { AppContext } from "~/services/app-context.server";
import { recordDownload } from "~/services/api-keys/key-usage.server";
import { findFileById, findFileByPath, type ServedFileRecord } from "~/services/files/lookup.server";
import { planFileResponse, RANGE_NOT_SATISFIABLE_BODY, servableOriginal, withoutHostHeaders } from "~/http/file-serving.server";
import { accelPrefix, accelResponse } from "~/http/accel-redirect.server";
import { toFileView } from "~/services/files/file-views.server";
import { MP4_COPY_VARIANT, POSTER_VARIANT, THUMBNAIL_SPEC, variantName } from "~/services/media/transforms.server";
import { canReadPrivateFile, holdsReadKeyOf, type KeyedRequest } from "~/services/files/private-access.server";
import type { FileId, ServerId } from "~/lib/ids";
import { parseId, parseServerId } from "~/services/platform/ids.server";

const REDIRECT_TTL_S = 600;

export interface DownloadRequest extends KeyedRequest {
  method: string;
}

const notFound = () => apiError("not_found", "File not found");

/** `{server_id}/{category}/{filename}`, the `path` of a file view, or its full /f/ URL. */
export function parseFileReference(value: string | null): { serverId: ServerId; category: string; filename: string } | null {
  if (!value) return null;
  const trimmed = value.trim().replace(/^[a-z]+:\/\/[^/]+/i, "").replace(/^\/?(f\/)?/, "");
  const match = /^([a-z0-9]{1,40})\/([a-z0-9_-]{1,40})\/([A-Za-z0-9_-][A-Za-z0-9._-]{0,199})$/.exec(trimmed.split("?")[0]);
  const serverId = parseServerId(match?.[1]);
  return match && serverId ? { serverId, category: match[2], filename: match[3] } : null;
}

/** The file a download or metadata request may see: live, and public or keyed to its server. */
export async function findVisibleFile(
  ctx: AppContext,
  request: KeyedRequest,
  ref: { id: string } | { serverId: ServerId; category: string; filename: string },
): Promise<ServedFileRecord | undefined> {
  const id = "id" in ref ? parseId<FileId>(ref.id) : undefined;
  const file = "id" in ref ? id && (await findFileById(ctx.db, id)) : await findFileByPath(ctx.db, ref.serverId, ref.category, ref.filename);
  if (!file) return undefined;
  if (!file.is_public && !(await canReadPrivateFile(ctx, request, file))) return undefined;
  return file;
}

/**
 * GET/HEAD of a file for /api/download: same validators, ranges and safety headers as /f/, always
 * as an attachment under its original name.
 */
export async function downloadResponse(ctx: AppContext, request: DownloadRequest, file: ServedFileRecord | undefined): Promise<Response> {
  if (!file) return notFound();
  if (file.hidden_at) return errorResponse(ERRORS.fileHidden());
  const plan = planFileResponse(
    { method: request.method, header: (name) => request.headers.get(name) ?? undefined },
    servableOriginal(file),
    { forceAttachment: true },
  );
  const headers = withoutHostHeaders(plan.headers);
  if (plan.status === 304) return new Response(null, { status: 304, headers });
  if (plan.status === 416) return new Response(RANGE_NOT_SATISFIABLE_BODY, { status: 416, headers });
  if (!plan.sendBody) return new Response(null, { status: plan.status, headers });

  if (ctx.blobs.kind === "s3" && ctx.config.S3_SERVE === "redirect") {
    const url = await (ctx.blobs as S3BlobStore).presignGet(file.storage_key, REDIRECT_TTL_S, plan.headers["Content-Disposition"]);
    await countDownload(ctx, file, plan.length);
    return new Response(null, { status: 302, headers: { Location: url, "Cache-Control": `private, max-age=${REDIRECT_TTL_S / 2}` } });
  }
  const prefix = accelPrefix(ctx);
  if (prefix) {
    if (!(await ctx.blobs.head(file.storage_key))) return missingBlob(ctx, file);
    await countDownload(ctx, file, plan.length);
    return accelResponse(prefix, file.storage_key, headers);
  }
  const blob = await ctx.blobs.get(file.storage_key, plan.range ?? undefined);
  if (!blob) return missingBlob(ctx, file);
  await countDownload(ctx, file, plan.length);
  return new Response(Readable.toWeb(blob.stream) as ReadableStream<Uint8Array>, { status: plan.status, headers });
}

function missingBlob(ctx: AppContext, file: ServedFileRecord): Response {
  ctx.logger.error({ fileId: file.id }, "file row without its blob");
  return notFound();
}

async function countDownload(ctx: AppContext, file: ServedFileRecord, bytes: number) {
  await recordDownload(ctx.db, file.server_id, bytes).catch((error) => ctx.logger.warn({ err: error }, "could not record download"));
}

/**
 * GET /api/files/{id}: the file view plus the URLs of its gallery thumbnail and poster, when made.
 * Public means the bytes, not the record: player identifiers and metadata need a read key of the
 * file's server, and anyone else — no key, another server's key — gets the missing file's answer.
 */
export async function fileMetadataResponse(ctx: AppContext, request: KeyedRequest, id: string): Promise<Response> {
  const fileId = parseId<FileId>(id);
  const visible = fileId && (await findFileById(ctx.db, fileId));
  if (!visible || !(await holdsReadKeyOf(ctx, request, visible))) return notFound();
  const [file, variants] = await Promise.all([
    ctx.db.selectFrom("files").selectAll().where("id", "=", visible.id).executeTakeFirstOrThrow(),
    ctx.db.selectFrom("file_variants").select(["variant"]).where("file_id", "=", visible.id).execute(),
  ]);
  const view = toFileView(ctx.config.cdnBaseUrl, file);
  const names = new Set(variants.map((v) => v.variant));
  const thumbnail = names.has(variantName(THUMBNAIL_SPEC)) || names.has(variantName(THUMBNAIL_SPEC, "poster"));
  const media = {
    thumbnail_url: thumbnail ? `${view.url}?w=${THUMBNAIL_SPEC.width}&format=${THUMBNAIL_SPEC.format}` : null,
    poster_url: names.has(POSTER_VARIANT) ? `${view.url}?format=webp` : null,
    // The H.264 copy of a WebM/MOV video, once the background encode made it (null until then).
    mp4_url: names.has(MP4_COPY_VARIANT) ? `${view.url}?format=mp4` : null,
    download_url: `${ctx.config.appUrl}/api/download/${file.id}`,
  };
  return apiSuccess({ ...view, ...media, file: { ...view, ...media }, data: { ...view, ...media } });
}
