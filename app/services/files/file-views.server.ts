import type { FileRecord } from "../../../db/schema";

/** The CDN path of a file: what `url` and `public_url` point at. */
export function fileUrl(cdnBaseUrl: string, file: Pick<FileRecord, "server_id" | "category" | "filename">): string {
  return `${cdnBaseUrl}/f/${file.server_id}/${file.category}/${file.filename}`;
}

/** A file as the script API shows it, with every alias known clients read. */
export function toFileView(cdnBaseUrl: string, file: FileRecord) {
  const url = fileUrl(cdnBaseUrl, file);
  return {
    id: file.id,
    file_id: file.id,
    server_id: file.server_id,
    filename: file.filename,
    original_filename: file.original_filename,
    file_size: file.size_bytes,
    size: file.size_bytes,
    mime_type: file.mime_type,
    category: file.category,
    is_public: file.is_public,
    url,
    public_url: url,
    link: url,
    path: `${file.server_id}/${file.category}/${file.filename}`,
    width: file.width,
    height: file.height,
    duration_ms: file.duration_ms,
    sha256: file.sha256,
    player_name: file.player_name,
    player_identifier: file.player_identifier,
    metadata: file.metadata,
    uploaded_at: file.created_at.toISOString(),
    expires_at: file.expires_at ? file.expires_at.toISOString() : null,
    retention_exempt: file.retention_exempt,
    thumbhash: file.thumbhash,
  };
}

export type FileView = ReturnType<typeof toFileView>;

/** What an upload's answer says beyond the record: what processing removed, or could not. */
export interface UploadNotes {
  metadata_stripped?: string[];
  metadata_warning?: string;
  /** Set when the upload asked to be kept forever and the plan does not allow it (the file was stored and will expire). */
  retention_warning?: string;
}

/** What an upload that asked for `retention_exempt` is told when its plan keeps files for a limited time. */
export function retentionWarning(file: Pick<FileRecord, "expires_at">): string {
  const until = file.expires_at ? ` and expires at ${file.expires_at.toISOString()}` : "";
  return `retention_exempt was not applied: keeping files forever needs a paid plan. The file was stored; it follows your plan's retention${until}.`;
}

/** The 201 body of an upload: the first file's fields at the top level, every file in `files`. */
export function uploadResponseBody(cdnBaseUrl: string, files: (FileRecord & UploadNotes)[]) {
  const views = files.map((file) => ({
    ...toFileView(cdnBaseUrl, file),
    metadata_stripped: file.metadata_stripped ?? [],
    ...(file.metadata_warning ? { metadata_warning: file.metadata_warning } : {}),
    ...(file.retention_warning ? { retention_warning: file.retention_warning } : {}),
  }));
  const first = views[0];
  return {
    ...first,
    data: { id: first.id, url: first.url, link: first.link, public_url: first.public_url, filename: first.filename },
    attachments: views.map((v) => ({ url: v.url, proxy_url: v.url })),
    files: views,
  };
}
