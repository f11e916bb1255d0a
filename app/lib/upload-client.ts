import * as tus from "tus-js-client";

/**
 * Browser side of the Upload page: one XMLHttpRequest per file, for real upload progress and cancel;
 * files from RESUMABLE_FROM_BYTES up go over tus, which survives a dropped connection and can pause.
 */

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
  /** Resumable uploads only: stop sending, keeping what the server has, and carry on later. */
  pause?(): void;
  resume?(): void;
}

/** Files this large go over tus: worth resuming, and a dropped connection would otherwise cost them whole. */
export const RESUMABLE_FROM_BYTES = 8 * 1024 * 1024;
const RESUMABLE_CHUNK_BYTES = 4 * 1024 * 1024;

function errorMessage(body: string, fallback: string): string {
  try {
    const json = JSON.parse(body) as { error?: unknown };
    return typeof json.error === "string" && json.error ? json.error : fallback;
  } catch {
    return fallback;
  }
}

function uploadResumable(file: File, options: UploadOptions, onProgress: (percent: number) => void, fallbackMessage: string): UploadHandle {
  let cancelled = false;
  let upload!: tus.Upload;
  let fail!: (error: UploadError) => void;
  const done = new Promise<UploadedFile>((resolve, reject) => {
    fail = reject;
    upload = new tus.Upload(file, {
      endpoint: `/api/portal/uploads/tus?server_id=${encodeURIComponent(options.serverId)}`,
      chunkSize: RESUMABLE_CHUNK_BYTES,
      retryDelays: [0, 1000, 3000, 5000, 10000],
      removeFingerprintOnSuccess: true,
      metadata: {
        filename: file.name,
        category: options.category,
        is_public: options.isPublic ? "true" : "false",
        ...(options.playerName.trim() ? { player_name: options.playerName.trim() } : {}),
        ...(options.playerIdentifier.trim() ? { player_identifier: options.playerIdentifier.trim() } : {}),
      },
      onProgress: (sent, total) => onProgress(Math.min(99, Math.round((sent / total) * 100))),
      onSuccess: ({ lastResponse }) => {
        try {
          const json = JSON.parse(lastResponse.getBody()) as { files?: UploadedFile[] };
          if (!json.files?.[0]) throw new Error("no file in the answer");
          onProgress(100);
          resolve(json.files[0]);
        } catch {
          reject(new UploadError(fallbackMessage));
        }
      },
      onError: (error) => {
        if (cancelled) return reject(new UploadError("Upload cancelled", true));
        const body = (error as tus.DetailedError).originalResponse?.getBody() ?? "";
        reject(new UploadError(errorMessage(body, fallbackMessage)));
      },
    });
    upload.start();
  });
  return {
    done,
    cancel() {
      cancelled = true;
      // abort() reports nothing to onError, so the cancel settles the upload itself.
      fail(new UploadError("Upload cancelled", true));
      void upload.abort(true).catch(() => undefined);
    },
    pause: () => void upload.abort(false),
    resume: () => upload.start(),
  };
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
  if (file.size >= RESUMABLE_FROM_BYTES) return uploadResumable(file, options, onProgress, fallbackMessage);
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
