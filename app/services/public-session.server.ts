import type { AppLoadContext } from "react-router";

/**
 * Whether the visitor has a session, for public pages that change a button when signed in.
 * Sessions arrive with the accounts feature; until then every visitor is anonymous.
 */
export async function isSignedIn(_request: Request, _context: AppLoadContext): Promise<boolean> {
  return false;
}
