/** Browser side of the Upload page: one XMLHttpRequest per file, for real upload progress and cancel. */

export interface UploadOptions {
  serverId: string;
  category: string;
  playerName: string;
  playerIdentifier: string;
  isPublic: boolean;
}

export interface UploadedFile {
  id: string;
  filename: string;
  original_filename: string;
  file_size: number;
  mime_type: string;
  public_url: string;
  is_public: boolean;
}

export interface UploadHandle {
  done: Promise<UploadedFile>;
  cancel(): void;
}

export class UploadError extends Error {
  constructor(
    message: string,
    readonly cancelled = false,
  ) {
    super(message);
    this.name = "UploadError";
  }
}

export function uploadFile(file: File, options: UploadOptions, onProgress: (percent: number) => void, fallbackMessage: string): UploadHandle {
  const xhr = new XMLHttpRequest();
  const body = new FormData();
  // Text fields before the file, so the server knows them when the bytes start streaming.
  body.append("category", options.category);
  if (options.playerName.trim()) body.append("player_name", options.playerName.trim());
  if (options.playerIdentifier.trim()) body.append("player_identifier", options.playerIdentifier.trim());
  body.append("is_public", options.isPublic ? "true" : "false");
  body.append("file", file, file.name);

  const done = new Promise<UploadedFile>((resolve, reject) => {
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.min(100, Math.round((event.loaded / event.total) * 100)));
    };
    xhr.onload = () => {
      let json: { success?: boolean; error?: unknown; files?: UploadedFile[] } | null = null;
      try {
        json = JSON.parse(xhr.responseText);
      } catch {
        json = null;
      }
      if (xhr.status >= 200 && xhr.status < 300 && json?.files?.[0]) {
        onProgress(100);
        resolve(json.files[0]);
      } else {
        reject(new UploadError(typeof json?.error === "string" && json.error ? json.error : fallbackMessage));
      }
    };
    xhr.onerror = () => reject(new UploadError(fallbackMessage));
    xhr.onabort = () => reject(new UploadError("Upload cancelled", true));
  });
  xhr.open("POST", `/api/portal/upload?server_id=${encodeURIComponent(options.serverId)}`);
  xhr.send(body);
  return { done, cancel: () => xhr.abort() };
}
