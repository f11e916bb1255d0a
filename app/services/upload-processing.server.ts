import type { AppContext } from "./app-context.server.ts";
import type { StoredUpload, UploadTarget } from "./uploads.server.ts";

/**
 * The seam between storing an upload's bytes and inserting its row: runs once per file, after its
 * blob is written and before the transaction that reserves quota and inserts the row. Image and
 * video work (dimensions, duration, thumbnails, metadata stripping) belongs here. It may return a
 * changed upload (the target carries the server's strip_metadata/convert_to_webp settings) (another storage key, size or type, extra variants); every blob it writes must be
 * listed in the returned upload so that a failed commit deletes it.
 */
export async function processStoredUpload(_ctx: AppContext, _target: UploadTarget, upload: StoredUpload): Promise<StoredUpload> {
  return upload;
}
