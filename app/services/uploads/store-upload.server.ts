import { BlobTooLargeError, type BlobBody } from "../../../storage/blob-store";
import { answeredWithError, failedBeforeSending, isDatabaseUnavailable } from "../../../db/connection-errors";
import type { Db } from "../../../db/index";
import type { FileRecord, UploadVia } from "../../../db/schema";
import { DomainError, ERRORS } from "~/services/platform/domain-error.server";
import type { Tier } from "~/lib/plans";
import type { AppContext } from "~/services/app-context.server";
import { uploadSettingsOf, type ServerUploadSettings } from "~/services/servers/server-settings.server";
import { assertCategoryInScope, type KeyScopes } from "~/services/api-keys/key-scopes.server";
import { processUploadedMedia, type StoredBytes } from "~/services/media/process-upload.server";
import { encodeInBackground } from "~/services/media/background-encodes.server";
import { makeVideoPreview } from "~/services/media/video-copies.server";
import { randomString } from "~/services/platform/ids.server";
import { assertBlobClean } from "~/services/uploads/malware-scan.server";
import { getAccountQuota } from "~/services/billing/quota.server";
import { insertUploadedFiles } from "~/services/uploads/upload-commit.server";
import { addFilesToCase, assertCaseAccepts, openCase } from "~/services/files/evidence-cases.server";
import { deleteServerFile } from "~/services/files/delete-files.server";
import { retentionWarning, type UploadNotes } from "~/services/files/file-views.server";
import { DEFAULT_CATEGORY, type UploadFields } from "~/services/uploads/upload-fields.server";
import { assertTypeAllowed, detectType, SNIFF_BYTES } from "~/services/uploads/accepted-types.server";
import { BUFFERED_UPLOAD_BYTES, uploadBuffers } from "~/services/uploads/upload-buffers.server";
import type { ApiKeyId, FileId, ServerId, TeamId, UserId } from "~/lib/ids";

const MB = 1024 * 1024;

/** How an upload arrived, kept on its row for the file detail view ("by which key or the portal"). */
export interface UploadSource {
  via: UploadVia;
  /** The signed-in member who uploaded through the portal (recorded when the upload files into a case). */
  userId?: UserId;
  keyId: ApiKeyId | null;
}

/** Where an upload goes and what it may be: resolved from a key, a presigned grant or a webhook. */
export interface UploadTarget {
  source: UploadSource;
  serverId: ServerId;
  /** The server's owner, whose quota the upload uses. */
  teamId: TeamId;
  tier: Tier;
  maxBytes: number;
  allowedTypes: string[];
  defaultPublic: boolean;
  /** servers.strip_metadata and servers.convert_to_webp, for the processing seam. */
  stripMetadata: boolean;
  convertToWebp: boolean;
  /**
   * Values a presigned grant fixed; they win over what the client sends. `filename` is the stored
   * name the grant promised (its public URL was answered before the bytes existed).
   */
  forced?: { category?: string; filename?: string; playerName?: string; playerIdentifier?: string };
  /** The uploading key's limits (categories it may write); absent for portal and webhook uploads. */
  keyScopes?: KeyScopes;
}

export interface StoredVariant {
  variant: string;
  storageKey: string;
  mimeType: string;
  sizeBytes: number;
  width: number | null;
  height: number | null;
}

/** A file whose bytes are in the blob store but which has no row yet. */
export interface StoredUpload {
  storageKey: string;
  /** The generated stored name, the last segment of the file's URL. */
  filename: string;
  originalFilename: string;
  mimeType: string;
  sizeBytes: number;
  sha256: string;
  width: number | null;
  height: number | null;
  durationMs: number | null;
  variants: StoredVariant[];
  /** What processing removed from the bytes (the upload answer's `metadata_stripped`). */
  metadataStripped?: string[];
  metadataWarning?: string;
  thumbhash?: string | null;
}


/** The upload target of a server, or throws 403 for a server that is not active. */
export async function loadUploadTarget(db: Db, maxUploadBytes: number, serverId: ServerId, source: UploadSource): Promise<UploadTarget> {
  const row = await db
    .selectFrom("servers")
    .leftJoin("subscriptions", "subscriptions.team_id", "servers.team_id")
    .select(["servers.id", "servers.team_id", "servers.status", "servers.max_file_size_mb", "servers.allowed_file_types", "servers.default_public", "servers.strip_metadata", "servers.convert_to_webp", "subscriptions.tier"])
    .where("servers.id", "=", serverId)
    .executeTakeFirst();
  if (!row) throw new DomainError("not_found", "Server not found");
  if (row.status !== "active") throw new DomainError("server_inactive", "This server is not active and cannot accept uploads");
  return uploadTargetOf(
    {
      serverId: row.id,
      teamId: row.team_id,
      tier: (row.tier ?? "free") as Tier,
      settings: uploadSettingsOf(row),
    },
    maxUploadBytes,
    source,
  );
}

/** An active server's upload target from its settings (read with a key, or by loadUploadTarget). */
export function uploadTargetOf(
  server: { serverId: ServerId; teamId: TeamId; tier: Tier; settings: ServerUploadSettings },
  maxUploadBytes: number,
  source: UploadSource,
): UploadTarget {
  const { settings } = server;
  return {
    source,
    serverId: server.serverId,
    teamId: server.teamId,
    tier: server.tier,
    maxBytes: Math.min(settings.maxFileSizeMb * MB, maxUploadBytes),
    allowedTypes: settings.allowedFileTypes,
    defaultPublic: settings.defaultPublic,
    stripMetadata: settings.stripMetadata,
    convertToWebp: settings.convertToWebp,
  };
}

/** Refuses before any byte is read when the account is already full. */
export async function assertQuotaNotFull(db: Db, teamId: TeamId): Promise<void> {
  const quota = await getAccountQuota(db, teamId);
  if (quota.usedBytes >= quota.quotaBytes) throw quotaExceeded(quota.quotaBytes, quota.usedBytes);
}

export function quotaExceeded(quotaBytes: number, usedBytes: number): DomainError {
  return new DomainError("quota_exceeded", "Storage quota exceeded. Upgrade your plan or delete files to free space.", {
    quota_bytes: quotaBytes,
    used_bytes: usedBytes,
  });
}

/** A generated stored name; without an extension when the type is not known yet (a presigned grant). */
export function newStoredName(ext?: string): string {
  const stem = randomString(20, "0123456789abcdefghijklmnopqrstuvwxyz");
  return ext ? `${stem}.${ext}` : stem;
}

async function* prepend(head: Uint8Array[], rest: AsyncIterator<Uint8Array>): AsyncGenerator<Uint8Array> {
  try {
    yield* head;
    for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value;
  } finally {
    await rest.return?.();
  }
}

export interface StoreHints {
  /** The category known when the bytes arrive; part of the storage key only (rows use the final one). */
  category?: string;
  clientFilename?: string;
  /**
   * The size of the request the file arrives in, when it is known (Content-Length, or bytes already in
   * memory): a file is read whole only from a request of at most BUFFERED_UPLOAD_BYTES, so a large request
   * streams from its first byte and memory per request stays within that bound.
   */
  requestBytes?: number;
}

/** Reads from `iterator` until at least `until` bytes are held or it ends; `next()` errors pass through. */
async function readAtLeast(iterator: AsyncIterator<Uint8Array>, chunks: Uint8Array[], held: number, until: number) {
  while (held < until) {
    const next = await iterator.next();
    if (next.done) return { held, done: true };
    chunks.push(next.value);
    held += next.value.length;
  }
  return { held, done: false };
}

/**
 * Stores one file in the blob store: sniffs its type from the first bytes (415 before anything
 * is written), stores it under a generated name with the size limit enforced (413; while streaming
 * for a large file), then runs the processing seam. Nothing is left behind when it throws.
 */
export async function storeUpload(ctx: AppContext, target: UploadTarget, source: AsyncIterable<Uint8Array>, hints: StoreHints = {}): Promise<StoredUpload> {
  const iterator = source[Symbol.asyncIterator]();
  const chunks: Uint8Array[] = [];
  const refuse = async (error: unknown): Promise<never> => {
    await iterator.return?.();
    throw error;
  };
  let read = await readAtLeast(iterator, chunks, 0, SNIFF_BYTES).catch(refuse);
  if (read.held > target.maxBytes) return refuse(ERRORS.fileTooLarge(target.maxBytes, read.held));
  if (read.held === 0) return refuse(new DomainError("missing_file", "The file is empty"));
  const sniffed = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  const type = await detectType(sniffed.subarray(0, SNIFF_BYTES), hints.clientFilename);
  try {
    assertTypeAllowed(target.allowedTypes, type);
  } catch (error) {
    return refuse(error);
  }

  const category = target.forced?.category ?? hints.category ?? DEFAULT_CATEGORY;
  // Refused before a byte is stored when the category is already known; commitUploads checks the final one.
  if (target.keyScopes && (target.forced?.category ?? hints.category) !== undefined) {
    try {
      assertCategoryInScope(target.keyScopes, category);
    } catch (error) {
      return refuse(error);
    }
  }
  const readWhole = hints.requestBytes !== undefined && hints.requestBytes <= BUFFERED_UPLOAD_BYTES;
  if (readWhole && !read.done) read = await readAtLeast(iterator, chunks, read.held, Math.min(BUFFERED_UPLOAD_BYTES, target.maxBytes) + 1).catch(refuse);
  const filename = target.forced?.filename ?? newStoredName(type.ext);
  const named: NamedUpload = {
    storageKey: `${target.serverId}/${category}/${filename}`,
    filename,
    originalFilename: hints.clientFilename ?? `${category}.${type.ext}`,
    mimeType: type.mime,
  };
  if (!read.done) return storeAndProcess(ctx, target, named, prepend(chunks, iterator), null);
  // A file read whole moves into a pooled buffer, so its network chunks die young (decision record 089);
  // the buffer goes back to the pool once the file is stored and processed, or refused.
  const held = uploadBuffers.hold(chunks);
  chunks.length = 0;
  try {
    return await storeAndProcess(ctx, target, named, held.bytes, held.bytes);
  } finally {
    held.release();
  }
}

type NamedUpload = Pick<StoredUpload, "storageKey" | "filename" | "originalFilename" | "mimeType">;

/** Writes `body` under the upload's name, then runs the processing seam on it (from `bytes` when they are in memory). */
async function storeAndProcess(ctx: AppContext, target: UploadTarget, named: NamedUpload, body: BlobBody, bytes: StoredBytes): Promise<StoredUpload> {
  let put;
  try {
    put = await ctx.blobs.put(named.storageKey, body, { maxBytes: target.maxBytes, contentType: named.mimeType });
  } catch (error) {
    if (error instanceof BlobTooLargeError) throw ERRORS.fileTooLarge(target.maxBytes, error.receivedBytes);
    throw error;
  }
  const stored: StoredUpload = {
    ...named,
    sizeBytes: put.size,
    sha256: put.sha256,
    width: null,
    height: null,
    durationMs: null,
    variants: [],
  };
  let current = stored;
  try {
    current = await processStoredUpload(ctx, target, stored, bytes);
    // The bytes that will be served are the ones scanned (after any remux or metadata strip).
    await assertBlobClean(ctx, current.storageKey);
    return current;
  } catch (error) {
    await discardUploads(ctx, current === stored ? [stored] : [stored, current]);
    throw error;
  }
}

/** Deletes the blobs of uploads that will not get rows. Best effort: the orphan sweep catches the rest. */
export async function discardUploads(ctx: AppContext, uploads: StoredUpload[]): Promise<void> {
  const keys = uploads.flatMap((u) => [u.storageKey, ...u.variants.map((v) => v.storageKey)]);
  await Promise.all(
    keys.map((key) => ctx.blobs.delete(key).catch((error) => ctx.logger.warn({ err: error, key }, "could not delete a discarded upload"))),
  );
}

/**
 * Whether a commit that failed on a database outage may still have happened: its statement was sent
 * (a connection was made) and PostgreSQL never answered it with an error (which would mean rolled back).
 */
function commitMayHaveHappened(error: unknown): boolean {
  return isDatabaseUnavailable(error) && !failedBeforeSending(error) && !answeredWithError(error);
}

/**
 * Makes stored uploads real, all or none, in one statement (insertUploadedFiles): reserves their
 * total size of the owner's quota (one conditional UPDATE, so concurrent uploads cannot pass it),
 * adds it to the server's usage, inserts the rows and variants and counts the upload. Every upload
 * path commits here, so this is where a failed commit deletes its blobs, on disk or in S3, at once —
 * and nothing in the database changed. Only a commit whose connection vanished before PostgreSQL
 * answered may have happened: a row must never lose its blob, so those blobs go as soon as the database
 * answers again and says the rows do not exist (InDoubtCommits).
 */
export async function commitUploads(ctx: AppContext, target: UploadTarget, uploads: StoredUpload[], fields: UploadFields): Promise<(FileRecord & UploadNotes)[]> {
  const now = new Date();
  const category = target.forced?.category ?? fields.category ?? DEFAULT_CATEGORY;
  let stage: "checks" | "insert" | "committed" = "checks";
  try {
    if (target.keyScopes) assertCategoryInScope(target.keyScopes, category);
    if (fields.caseNumber) await assertCaseAccepts(ctx.db, target.serverId, fields.caseNumber, uploads.length);
    stage = "insert";
    const rows = await insertUploadedFiles(
      ctx.db,
      target,
      uploads,
      {
        category,
        filename: fields.filename,
        isPublic: fields.isPublic ?? target.defaultPublic,
        playerName: target.forced?.playerName ?? fields.playerName ?? null,
        playerIdentifier: target.forced?.playerIdentifier ?? fields.playerIdentifier ?? null,
        metadata: fields.metadata ?? {},
        keepForever: Boolean(fields.retentionExempt),
      },
      now,
    );
    if (!rows) {
      stage = "checks";
      const quota = await getAccountQuota(ctx.db, target.teamId, now);
      throw quotaExceeded(quota.quotaBytes, quota.usedBytes);
    }
    stage = "committed";
    if (fields.caseNumber) await fileIntoCase(ctx, target, fields.caseNumber, rows.map((r) => r.id));
    // Match rows to uploads by key rather than trusting RETURNING order.
    const byKey = new Map(rows.map((r) => [r.storage_key, r]));
    const committed = uploads.map((u) => {
      const row = byKey.get(u.storageKey)!;
      return {
        ...row,
        metadata_stripped: u.metadataStripped ?? [],
        ...(u.metadataWarning ? { metadata_warning: u.metadataWarning } : {}),
        // Asked to be kept forever on a plan that keeps files for a limited time: stored, and told so.
        ...(fields.retentionExempt && !row.retention_exempt ? { retention_warning: retentionWarning(row) } : {}),
      };
    });
    for (const file of committed) {
      if (file.mime_type.startsWith("video/") && file.width) {
        encodeInBackground(`preview/${file.id}`, () => makeVideoPreview(ctx, file), ctx.logger);
      }
    }
    return committed;
  } catch (error) {
    const inDoubt = stage === "insert" ? commitMayHaveHappened(error) : stage === "committed" && isDatabaseUnavailable(error);
    if (inDoubt) {
      ctx.logger.warn({ err: error, keys: uploads.map((u) => u.storageKey) }, "upload commit in doubt; its blobs go once the database says its rows do not exist");
      ctx.inDoubtCommits.settle(uploads.map((u) => ({ storageKey: u.storageKey, variantKeys: u.variants.map((v) => v.storageKey) })));
      throw error;
    }
    await discardUploads(ctx, uploads);
    throw error;
  }
}

/**
 * Puts just-committed files into the server's case `number` (opened if new), as the uploading key or
 * person. A closed or full case was refused before the commit (assertCaseAccepts); one closed in the
 * meantime still refuses, and the rows then go again, so the upload as a whole fails.
 */
async function fileIntoCase(ctx: AppContext, target: UploadTarget, number: string, fileIds: FileId[]): Promise<void> {
  const by = target.source.keyId ? { keyId: target.source.keyId } : { userId: target.source.userId ?? null };
  try {
    const { evidenceCase } = await openCase(ctx.db, { serverId: target.serverId, teamId: target.teamId, body: { number } });
    await addFilesToCase(ctx.db, evidenceCase, fileIds, by);
  } catch (error) {
    for (const id of fileIds) await deleteServerFile(ctx, target.serverId, id, { evenInOpenCase: true }).catch(() => undefined);
    throw error;
  }
}

/**
 * The seam between storing an upload's bytes and inserting its row: runs once per file, after its
 * blob is written and before the transaction that reserves quota and inserts the row. Images are
 * checked (pixel and frame limits, corrupt data), converted to WebP or stripped of metadata as the
 * server's settings say, and get a thumbnail; videos and audio get duration, size and a poster, and
 * recordings without a duration (MediaRecorder WebM) are remuxed so they seek.
 * Every blob written is listed in the returned upload, so a failed commit deletes it.
 */
async function processStoredUpload(ctx: AppContext, target: UploadTarget, upload: StoredUpload, bytes: StoredBytes): Promise<StoredUpload> {
  const processed = await processUploadedMedia(
    { blobs: ctx.blobs, config: ctx.config, logger: ctx.logger },
    { storageKey: upload.storageKey, filename: upload.filename, mimeType: upload.mimeType, size: upload.sizeBytes, sha256: upload.sha256 },
    { stripMetadata: target.stripMetadata, convertToWebp: target.convertToWebp, maxBytes: target.maxBytes },
    bytes,
  );
  return {
    ...upload,
    storageKey: processed.storageKey,
    filename: processed.filename,
    mimeType: processed.mimeType,
    sizeBytes: processed.size,
    sha256: processed.sha256,
    width: processed.width,
    height: processed.height,
    durationMs: processed.durationMs,
    metadataStripped: processed.metadataStripped,
    metadataWarning: processed.metadataWarning,
    thumbhash: processed.thumbhash,
    variants: processed.variants.map((v) => ({
      variant: v.variant,
      storageKey: v.storage_key,
      mimeType: v.mime_type,
      sizeBytes: v.size_bytes,
      width: v.width,
      height: v.height,
    })),
  };
}
