/** Product-wide constants that the browser and the server both read. */
export const DEFAULT_APP_NAME = "Stash";
export const MOBILE_BREAKPOINT_PX = 768;
export const TOAST_DURATION_MS = 5000;

export function pageTitle(page: string, appName: string = DEFAULT_APP_NAME) {
  return `${page} | ${appName}`;
}
