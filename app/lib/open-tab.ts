/**
 * Opens a new tab for a URL that needs a request first (a checkout link, a file that may be gone).
 * The tab opens at once, while the click still counts as a user gesture, so popup blockers let it
 * through; it goes to the URL `resolve` gives, or closes again when `resolve` throws (rethrown for
 * the caller's toast). Without a tab (blocked anyway) the current page goes there instead.
 */
export async function openTabFor(resolve: () => Promise<string>): Promise<void> {
  const tab = window.open("", "_blank");
  try {
    const url = await resolve();
    if (tab) {
      tab.opener = null;
      tab.location.href = url;
    } else {
      window.location.href = url;
    }
  } catch (error) {
    tab?.close();
    throw error;
  }
}
