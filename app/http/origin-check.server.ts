const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export const CROSS_SITE_MESSAGE = "This request came from another site and was refused.";

export interface OriginFacts {
  method: string;
  origin: string | null;
  secFetchSite: string | null;
  /** The origin the request was addressed to (scheme and Host as received). */
  requestOrigin: string;
}

/**
 * False for a state-changing request that a browser sent from another site. Modern browsers
 * mark every request with Sec-Fetch-Site, which decides; older ones send Origin on POSTs. A
 * request with neither did not come from a browser, so it cannot be a cookie-riding forgery.
 */
export function isSameOrigin(facts: OriginFacts, appUrl: string): boolean {
  if (SAFE_METHODS.has(facts.method.toUpperCase())) return true;
  if (facts.secFetchSite) return facts.secFetchSite === "same-origin" || facts.secFetchSite === "none";
  if (!facts.origin) return true;
  if (facts.origin === "null") return false;
  return facts.origin === new URL(appUrl).origin || facts.origin === facts.requestOrigin;
}

export function isSameOriginRequest(request: Request, config: { appUrl: string }): boolean {
  return isSameOrigin(
    {
      method: request.method,
      origin: request.headers.get("Origin"),
      secFetchSite: request.headers.get("Sec-Fetch-Site"),
      requestOrigin: new URL(request.url).origin,
    },
    config.appUrl,
  );
}
