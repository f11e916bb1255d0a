/** The error answers operations share: every key-authenticated call's, and every upload's. */
import { json, type ApiAnswer } from "~/lib/api-contract/registry";
import { ErrorAnswer } from "~/lib/api-contract/schemas";

export const err = (description: string): ApiAnswer => json(ErrorAnswer, description);

export const keyedErrors: Record<string, ApiAnswer> = {
  "400": err("Missing or invalid fields"),
  "401": err("Missing, invalid, revoked or expired API key"),
  "403": err("The key lacks the permission, belongs to another server, or the server is not active"),
  "429": err("Rate limited; see Retry-After"),
  "500": err("Server error"),
  "503": err(
    "The database, file storage or malware scanner is unavailable (code database_unavailable, storage_unavailable or scanner_unavailable); nothing was kept, retry after Retry-After seconds",
  ),
};

export const uploadErrors: Record<string, ApiAnswer> = {
  ...keyedErrors,
  "413": err(
    "A file over the size limit, which applies to each file (code file_too_large, with max_size_mb and file_size_mb); a multipart body larger " +
      "than max_files (20) files at that limit plus framing (code request_too_large, with max_files, max_size_mb and max_request_mb); or over " +
      "the account's storage quota (code quota_exceeded). Any of them stores none of the request's files.",
  ),
  "415": err(
    "The file's type, detected from its bytes, is not allowed on this server (code unsupported_file_type, with detected_type, allowed_types " +
      "and allowed_types_by_group). New servers allow every image (jpg, png, gif, webp, avif, heic), video (mp4, webm, mov, avi, mkv) and " +
      "audio (mp3, ogg/opus, weba = audio-only WebM, wav, m4a, aac) type and pdf; txt and game resources (zip, 7z, rar, ytd, ydr, " +
      "yft, ybn, ymap, ytyp, …) are opt-in.",
  ),
  "422": err(
    "An image whose data is truncated or corrupt (code image_corrupt, with format and problem, e.g. \"Corrupt JPEG data: premature end of " +
      "data segment\"), or a file the malware scanner (when the instance runs one) matched (code file_infected, with signature); nothing was kept",
  ),
  "507": err("File storage is full (code insufficient_storage); nothing was kept, retry after Retry-After seconds"),
};
