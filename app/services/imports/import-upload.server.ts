import type { FileRecord } from "../../../db/schema";
import type { AppContext } from "~/services/app-context.server";
import { commitUploads, loadUploadTarget, storeUpload, type UploadTarget } from "~/services/uploads/store-upload.server";
import { sanitiseDisplayName } from "~/services/uploads/upload-fields.server";
import type { ServerId, UserId } from "~/lib/ids";

/**
 * The imports' only door into the upload pipeline (type checks, size cap, malware scan, metadata
 * stripping, thumbnails, quota and commit): every imported file goes through `storeImportedFile`, so
 * when the pipeline becomes `acceptUpload(ctx, target, parts, options)` only this file changes.
 */

export interface ImportedFileFields {
  category: string;
  isPublic: boolean;
  /** Shown as the file's name; the stored name is generated. */
  filename: string | null;
  metadata: Record<string, unknown>;
}

/**
 * Where an import's files go: the server's limits, but not its uploads-per-minute budget, which is
 * for scripts — a job is one caller, paced by itself. Quota is still checked by every commit.
 */
export function importUploadTarget(ctx: AppContext, serverId: ServerId, userId: UserId | null): Promise<UploadTarget> {
  return loadUploadTarget(ctx.db, ctx.config.maxUploadBytes, serverId, { via: "import", keyId: null, ...(userId ? { userId } : {}) });
}

/** Stores and commits one file, all or nothing; throws the pipeline's DomainError when it refuses it. */
export async function storeImportedFile(ctx: AppContext, target: UploadTarget, body: AsyncIterable<Uint8Array>, fields: ImportedFileFields, sizeHint?: number): Promise<FileRecord> {
  const filename = sanitiseDisplayName(fields.filename ?? undefined);
  const upload = await storeUpload(ctx, target, body, { category: fields.category, clientFilename: filename, requestBytes: sizeHint });
  const [file] = await commitUploads(ctx, target, [upload], { category: fields.category, isPublic: fields.isPublic, metadata: fields.metadata, filename });
  return file!;
}
