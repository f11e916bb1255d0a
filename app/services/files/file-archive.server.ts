import { PassThrough, type Readable } from "node:stream";
import { ZipFile } from "yazl";
import type { Db } from "../../../db/index";
import type { BlobStore } from "../../../storage/blob-store";
import { DomainError } from "~/services/platform/domain-error.server";
import { MAX_BULK_FILES } from "~/services/files/file-details.server";
import { isUuid } from "~/services/platform/ids.server";
import type { FileId, TeamId } from "~/lib/ids";

/** Past this a zip would tie up the instance for minutes; the owner downloads in parts. */
export const MAX_ARCHIVE_BYTES = 2 * 1024 ** 3;

/** "evidence.png", then "evidence (2).png" for a second file of that name. */
export function uniqueNames(names: string[]): string[] {
  // Names given out so far, and the last number each name took (a file may already be called "evidence (2).png").
  const taken = new Set<string>();
  const lastNumber = new Map<string, number>();
  return names.map((raw) => {
    // Path separators and characters Windows refuses would let a name escape the folder or break extraction.
    const name = [...raw].map((c) => (c.charCodeAt(0) < 32 || '\\/:*?"<>|'.includes(c) ? "_" : c)).join("").replace(/^\.+/, "") || "file";
    const dot = name.lastIndexOf(".");
    let count = lastNumber.get(name.toLowerCase()) ?? 1;
    let unique = name;
    while (taken.has(unique.toLowerCase())) {
      count += 1;
      unique = dot > 0 ? `${name.slice(0, dot)} (${count})${name.slice(dot)}` : `${name} (${count})`;
    }
    lastNumber.set(name.toLowerCase(), count);
    taken.add(unique.toLowerCase());
    return unique;
  });
}

/**
 * The owner's chosen files as one zip, streamed: each blob is opened only when the zip reaches it,
 * and stored without recompression (media is compressed already). Files that are not the owner's
 * are skipped; none at all is a 404.
 */
export async function archiveOwnedFiles(deps: { db: Db; blobs: BlobStore }, teamId: TeamId, fileIds: FileId[]): Promise<{ stream: Readable; count: number }> {
  const ids = [...new Set(fileIds)].filter((id) => isUuid(id));
  if (ids.length > MAX_BULK_FILES) throw new DomainError("invalid_request", `Select at most ${MAX_BULK_FILES} files at a time.`);
  const files = ids.length
    ? await deps.db
        .selectFrom("files")
        .select(["storage_key", "original_filename", "size_bytes", "created_at"])
        .where("team_id", "=", teamId)
        .where("id", "in", ids)
        .orderBy("created_at", "asc")
        .execute()
    : [];
  if (files.length === 0) throw new DomainError("not_found", "File not found");
  const total = files.reduce((sum, f) => sum + Number(f.size_bytes), 0);
  if (total > MAX_ARCHIVE_BYTES) throw new DomainError("request_too_large", "Those files add up to more than 2 GB. Download them in smaller groups.");
  const names = uniqueNames(files.map((f) => f.original_filename));
  const stream = streamZip(
    deps.blobs,
    files.map((file, i) => ({ name: names[i]!, storageKey: file.storage_key, size: Number(file.size_bytes), mtime: new Date(file.created_at) })),
  );
  return { stream, count: files.length };
}

export interface ZipBlobEntry {
  name: string;
  storageKey: string;
  size: number;
  mtime: Date;
}

/**
 * A zip of blobs (each opened only when the zip reaches it, stored without recompression: media is
 * compressed already) followed by small in-memory files, streamed.
 */
export function streamZip(blobs: BlobStore, entries: ZipBlobEntry[], extras: { name: string; data: Buffer }[] = []): Readable {
  const zip = new ZipFile();
  for (const entry of entries) {
    zip.addReadStreamLazy(entry.name, { compress: false, mtime: entry.mtime, size: entry.size }, (callback) => {
      blobs.get(entry.storageKey).then(
        (blob) => (blob ? callback(null, blob.stream) : callback(new Error(`blob missing for ${entry.storageKey}`), null as unknown as Readable)),
        (error: Error) => callback(error, null as unknown as Readable),
      );
    });
  }
  for (const extra of extras) zip.addBuffer(extra.data, extra.name);
  const out = new PassThrough();
  // A blob that fails mid-zip ends the download with an error rather than a silently short archive.
  zip.on("error", (error: Error) => out.destroy(error));
  zip.outputStream.pipe(out);
  zip.end();
  return out;
}
