import { toast } from "sonner";

/** Spec: "Copied to clipboard"; on failure "Failed to copy" with its fallback text. */
export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast.success("Copied to clipboard");
  } catch {
    toast.error("Failed to copy", { description: "Could not copy to clipboard. Please copy manually." });
  }
}

export const mediaUrl = (id: string) => `/api/media/${id}`;
export const downloadUrl = (id: string) => `/api/media/${id}?download=1`;
export const thumbnailUrl = (id: string) => `/api/media/${id}?thumb=1`;

/**
 * Checks the file is still there, then lets the browser save it under its original name (the
 * server's Content-Disposition), streaming to disk rather than through memory.
 */
export async function startDownload(id: string, originalName: string): Promise<void> {
  try {
    const res = await fetch(downloadUrl(id), { method: "HEAD" });
    if (!res.ok) throw new Error(res.status === 404 ? "File not found" : "Failed to download file");
    const link = document.createElement("a");
    link.href = downloadUrl(id);
    link.download = originalName;
    document.body.append(link);
    link.click();
    link.remove();
    toast.success("Download started", { description: originalName });
  } catch (error) {
    toast.error("Download failed", { description: error instanceof Error ? error.message : "Failed to download file" });
  }
}

/** A stable date for server and browser alike, e.g. "22 Nov 2026". */
export function formatDate(iso: string): string {
  return new Date(iso).toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
}
