import { redirectDocument, useMatches } from "react-router";

/**
 * Route `handle` that serves a page as plain HTML: no client bundle, no hydration, only the small
 * inline script from `public-page-script.ts`. Public pages use it so visitors download ~7 KB of
 * JavaScript instead of the ~480 KB app bundle the portal needs.
 */
export const STATIC_PAGE_HANDLE = { hydrate: false } as const;

function isStaticHandle(handle: unknown): boolean {
  return typeof handle === "object" && handle !== null && (handle as { hydrate?: unknown }).hydrate === false;
}

export function useIsStaticPage(): boolean {
  return useMatches().some((match) => isStaticHandle(match.handle));
}

/**
 * The `clientLoader` of a static page: reached by a client-side navigation from a hydrated page
 * (the portal's logo link, say), it is loaded as a document, so it never renders inside the app.
 */
export function loadStaticPageAsDocument({ request }: { request: Request }): never {
  throw redirectDocument(request.url);
}
