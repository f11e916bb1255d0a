export const THEME_STORAGE_KEY = "ui-theme";
export const THEMES = ["light", "dark", "system"] as const;
export type Theme = (typeof THEMES)[number];

export function isTheme(value: unknown): value is Theme {
  return typeof value === "string" && (THEMES as readonly string[]).includes(value);
}

/**
 * Runs inline in <head> before first paint, so a stored dark theme never flashes light.
 * Kept as a string because it must run before any bundle loads. It also marks the page `js`, so
 * CSS can show script-only controls (copy buttons, tabs) from the first paint and hide them when
 * scripts are off.
 */
export const themeBootScript = `(function(){try{var t=localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)});if(t!=="light"&&t!=="dark")t="system";var d=t==="dark"||(t==="system"&&window.matchMedia("(prefers-color-scheme: dark)").matches);var e=document.documentElement;e.classList.add("js");e.classList.toggle("dark",d);e.dataset.theme=t;}catch(_){}})();`;
