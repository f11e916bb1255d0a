import { toast } from "sonner";

/**
 * POSTs to a billing endpoint and opens the answer's `url` in a new tab. The tab is opened
 * before the request, while the click still counts as a user gesture, so popup blockers let
 * it through; it is closed again if the request fails.
 */
export async function openStripePage(path: string, body: Record<string, unknown>, error: { title: string; fallback: string }) {
  const tab = window.open("", "_blank");
  try {
    const res = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const data = (await res.json().catch(() => ({}))) as { url?: string; error?: string };
    if (!res.ok || !data.url) throw new Error(data.error || error.fallback);
    if (tab) {
      tab.opener = null;
      tab.location.href = data.url;
    } else {
      window.location.href = data.url;
    }
  } catch (cause) {
    tab?.close();
    const message = cause instanceof Error && cause.message !== "Failed to fetch" ? cause.message : error.fallback;
    toast.error(error.title, { description: message });
  }
}
