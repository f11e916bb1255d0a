import type { MouseEvent } from "react";
import { showToast } from "~/lib/toast";
import { openTabFor } from "~/lib/open-tab";

/** Spec: "Copied to clipboard"; on failure "Failed to copy" with its fallback text. */
export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    showToast({ type: "success", title: "Copied to clipboard" });
  } catch {
    showToast({ type: "error", title: "Failed to copy", description: "Could not copy to clipboard. Please copy manually." });
  }
}

export const mediaUrl = (id: string) => `/api/media/${id}`;
export const downloadUrl = (id: string) => `/api/media/${id}?download=1`;
export const thumbnailUrl = (id: string) => `/api/media/${id}?thumb=1`;
export const previewUrl = (id: string) => `/api/media/${id}?preview=1`;

/** A HEAD of a portal file URL; throws the reason a toast shows when the file cannot be had. */
async function assertReachable(url: string, fallback: string): Promise<void> {
  const res = await fetch(url, { method: "HEAD" });
  if (res.ok) return;
  throw new Error(res.status === 404 ? "File not found" : res.status === 401 ? "Not authenticated" : fallback);
}

function failureMessage(error: unknown, fallback: string): string {
  return error instanceof Error && error.message !== "Failed to fetch" ? error.message : fallback;
}

/**
 * Checks the file is still there, then lets the browser save it under its original name (the
 * server's Content-Disposition), streaming to disk rather than through memory.
 */
export async function startDownload(id: string, originalName: string): Promise<void> {
  try {
    await assertReachable(downloadUrl(id), "Failed to download file");
    const link = document.createElement("a");
    link.href = downloadUrl(id);
    link.download = originalName;
    document.body.append(link);
    link.click();
    link.remove();
    showToast({ type: "success", title: "Download started", description: originalName });
  } catch (error) {
    showToast({ type: "error", title: "Download failed", description: failureMessage(error, "Failed to download file") });
  }
}

/**
 * View: the file in a new tab once a HEAD says it can be fetched, otherwise the spec's "View failed"
 * toast here (not a JSON error in the tab). The spec's client turned the bytes into a blob: URL; a
 * blob URL has the portal's origin, where an uploaded HTML or SVG file would run, so the tab loads
 * the file route instead, which serves active content sandboxed or as an attachment.
 */
export async function viewFile(id: string): Promise<void> {
  try {
    await openTabFor(async () => {
      await assertReachable(mediaUrl(id), "Failed to view file");
      return mediaUrl(id);
    });
  } catch (error) {
    showToast({ type: "error", title: "View failed", description: failureMessage(error, "Failed to view file") });
  }
}

/**
 * The View link's click: a plain click goes through `viewFile`; a middle or modified click (a
 * background tab, a new window) and a page not yet hydrated follow the link as it is.
 */
export function onViewClick(id: string) {
  return (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    void viewFile(id);
  };
}
