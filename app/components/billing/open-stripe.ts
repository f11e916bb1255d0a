import { showToast } from "~/lib/toast";
import { openTabFor } from "~/lib/open-tab";

/** POSTs to a billing endpoint and opens the answer's `url` in a new tab; a failure is a toast. */
export async function openStripePage(path: string, body: Record<string, unknown>, error: { title: string; fallback: string }) {
  try {
    await openTabFor(async () => {
      const res = await fetch(path, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      const data = (await res.json().catch(() => ({}))) as { url?: string; error?: string };
      if (!res.ok || !data.url) throw new Error(data.error || error.fallback);
      return data.url;
    });
  } catch (cause) {
    const message = cause instanceof Error && cause.message !== "Failed to fetch" ? cause.message : error.fallback;
    showToast({ type: "error", title: error.title, description: message });
  }
}
