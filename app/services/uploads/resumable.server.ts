import fs from "node:fs";
import path from "node:path";
import { FileStore } from "@tus/file-store";
import type { FileRecord } from "../../../db/schema";
import { findFileType } from "~/lib/file-types";
import { DomainError, ERRORS } from "~/services/platform/domain-error.server";
import type { AppContext } from "~/services/app-context.server";
import type { Config } from "~/services/platform/env.server";
import type { UploadNotes } from "~/services/files/file-views.server";
import { getAccountQuota } from "~/services/billing/quota.server";
import { parseUploadFields } from "~/services/uploads/upload-fields.server";
import { assertTypeAllowed } from "~/services/uploads/accepted-types.server";
import { commitUploads, quotaExceeded, storeUpload, type UploadTarget } from "~/services/uploads/store-upload.server";
import { DAY_MS } from "~/lib/durations";

/** A partial upload nobody touched for this long is deleted (and was never counted in usage). */
export const TUS_EXPIRY_MS = DAY_MS;

/** Where partial resumable uploads are kept (the tus file store), on this instance's disk. */
export function tusDirectory(config: Pick<Config, "dataDir">): string {
  return path.join(config.dataDir, "tus");
}

/** What a client declares when it creates a resumable upload (tus Upload-Length and Upload-Metadata). */
export interface DeclaredUpload {
  size: number | undefined;
  metadata: Record<string, string | null>;
}

/**
 * Checks at creation what can be known before any byte: the declared size against the server's
 * limit and the owner's free quota, the declared type (from the file name) against the server's
 * types. The bytes are checked again when the upload completes, as every upload's are.
 */
export async function checkResumableCreation(ctx: AppContext, target: UploadTarget, upload: DeclaredUpload): Promise<void> {
  const size = upload.size;
  if (size === undefined) throw new DomainError("invalid_request", "Upload-Length is required (deferred lengths are not accepted)");
  if (size > target.maxBytes) throw ERRORS.fileTooLarge(target.maxBytes, size);
  const quota = await getAccountQuota(ctx.db, target.teamId);
  if (quota.usedBytes + size > quota.quotaBytes) throw quotaExceeded(quota.quotaBytes, quota.usedBytes);
  const name = upload.metadata.filename ?? upload.metadata.name ?? "";
  const declared = findFileType(path.extname(name).slice(1).toLowerCase());
  if (declared) assertTypeAllowed(target.allowedTypes, { ext: declared.name, mime: declared.mimes[0] ?? "application/octet-stream" });
}

/**
 * The completed bytes (the partial file `uploadId` under tusDirectory) go through the same pipeline
 * as any upload: type from the bytes, size limit, media processing, malware scan, quota reserved
 * atomically, the row.
 */
export async function completeResumableUpload(
  ctx: AppContext,
  target: UploadTarget,
  uploadId: string,
  metadata: Record<string, string | null>,
): Promise<(FileRecord & UploadNotes)[]> {
  const file = path.join(tusDirectory(ctx.config), uploadId);
  const fields = parseUploadFields({
    category: metadata.category ?? undefined,
    is_public: metadata.is_public ?? undefined,
    player_name: metadata.player_name ?? undefined,
    player_identifier: metadata.player_identifier ?? undefined,
    metadata: metadata.metadata ?? undefined,
  });
  const stored = await storeUpload(ctx, target, fs.createReadStream(file), {
    category: fields.category,
    clientFilename: metadata.filename ?? metadata.name ?? undefined,
  });
  return commitUploads(ctx, target, [stored], { ...fields, filename: metadata.filename ?? metadata.name ?? undefined });
}

/** Deletes partial uploads untouched for TUS_EXPIRY_MS; returns how many (a background job). */
export async function deleteExpiredResumableUploads(config: Pick<Config, "dataDir">): Promise<number> {
  // FileStore creates its directory in the background; listing before that fails on a new volume.
  await fs.promises.mkdir(tusDirectory(config), { recursive: true });
  return new FileStore({ directory: tusDirectory(config), expirationPeriodInMilliseconds: TUS_EXPIRY_MS }).deleteExpired();
}
