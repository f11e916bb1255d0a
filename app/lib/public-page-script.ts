import type { Toast } from "~/lib/toast";
import { TOAST_DURATION_MS } from "~/lib/site";
import { THEME_STORAGE_KEY } from "~/lib/theme";

/** The spec's toasts for a code block's copy button. */
export const COPY_TOASTS = {
  success: { title: "Copied!", description: "Code snippet copied to clipboard" },
  failure: { title: "Failed to copy", description: "Please copy the code manually" },
};

interface PublicPageScriptOptions {
  flash: Toast | null;
  toastDurationMs: number;
  copyToasts: typeof COPY_TOASTS;
  themeStorageKey: string;
}

/**
 * Everything a static public page does in the browser: copy buttons with the spec's toasts, tabs,
 * the docs navigation's current section, closing open menus, following the system theme, and a
 * flash toast carried by a redirect. It is serialised into one inline script, so it must stay
 * self-contained: no imports and no references to anything outside the function.
 */
function enhancePublicPage(options: PublicPageScriptOptions) {
  const toastStyles = {
    base: "pointer-events-auto flex w-full items-start gap-3 rounded-lg border p-4 text-[13px] shadow-lg sm:w-[356px]",
    success: "border-emerald-200 bg-emerald-50 text-emerald-800 dark:border-emerald-900 dark:bg-emerald-950 dark:text-emerald-200",
    error: "border-red-200 bg-red-50 text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200",
    info: "border-border bg-popover text-popover-foreground",
  };
  const toastIcons = { success: "✓", error: "!", info: "i" };
  let region: HTMLElement | null = null;
  let dismissTimer = 0;

  function toastRegion(): HTMLElement {
    if (region) return region;
    region = document.createElement("section");
    region.setAttribute("aria-label", "Notifications alt+T");
    region.setAttribute("aria-live", "polite");
    region.tabIndex = -1;
    region.className = "pointer-events-none fixed inset-x-4 bottom-4 z-[100] flex flex-col items-end outline-none sm:left-auto sm:right-6 sm:bottom-6";
    document.body.append(region);
    return region;
  }

  function showToast(type: Toast["type"], title: string, description?: string) {
    const toast = document.createElement("div");
    toast.dataset.toast = type;
    toast.className = `${toastStyles.base} ${toastStyles[type]}`;
    const icon = document.createElement("span");
    icon.setAttribute("aria-hidden", "true");
    icon.className = "mt-px flex size-5 shrink-0 items-center justify-center rounded-full border border-current text-xs font-bold";
    icon.textContent = toastIcons[type];
    const text = document.createElement("div");
    text.className = "min-w-0 flex-1";
    const heading = document.createElement("p");
    heading.className = "font-semibold";
    heading.textContent = title;
    text.append(heading);
    if (description) {
      const detail = document.createElement("p");
      detail.className = "mt-0.5 opacity-90";
      detail.textContent = description;
      text.append(detail);
    }
    const close = document.createElement("button");
    close.type = "button";
    close.setAttribute("aria-label", "Close toast");
    close.className = "-m-1 rounded p-1 leading-none opacity-70 hover:opacity-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring";
    close.textContent = "✕";
    close.addEventListener("click", () => toast.remove());
    toast.append(icon, text, close);

    const schedule = () => {
      window.clearTimeout(dismissTimer);
      dismissTimer = window.setTimeout(() => toast.remove(), options.toastDurationMs);
    };
    // Like the portal's toasts: one at a time, a toast under the pointer stays until it leaves, and a sideways swipe dismisses it.
    toast.addEventListener("mouseenter", () => window.clearTimeout(dismissTimer));
    toast.addEventListener("mouseleave", schedule);
    let swipeStart: number | null = null;
    toast.style.touchAction = "pan-y";
    toast.addEventListener("pointerdown", (event) => {
      if (event.target instanceof Element && event.target.closest("button")) return;
      swipeStart = event.clientX;
      toast.setPointerCapture(event.pointerId);
    });
    toast.addEventListener("pointermove", (event) => {
      if (swipeStart !== null) toast.style.transform = `translateX(${event.clientX - swipeStart}px)`;
    });
    toast.addEventListener("pointerup", (event) => {
      if (swipeStart === null) return;
      const distance = Math.abs(event.clientX - swipeStart);
      swipeStart = null;
      if (distance > 45) toast.remove();
      else toast.style.transform = "";
    });
    toastRegion().replaceChildren(toast);
    schedule();
  }

  async function copyCode(button: HTMLElement) {
    const pre = button.closest("figure")?.querySelector("pre");
    if (!pre) return;
    try {
      await navigator.clipboard.writeText(pre.textContent ?? "");
      button.dataset.copied = "";
      window.setTimeout(() => delete button.dataset.copied, 2000);
      showToast("success", options.copyToasts.success.title, options.copyToasts.success.description);
    } catch {
      // Selecting the code leaves the reader one keystroke from copying it by hand.
      window.getSelection()?.selectAllChildren(pre);
      showToast("error", options.copyToasts.failure.title, options.copyToasts.failure.description);
    }
  }

  function enableTabs(list: HTMLElement) {
    const tabs = Array.from(list.querySelectorAll<HTMLElement>('[role="tab"]'));
    const select = (tab: HTMLElement) => {
      for (const other of tabs) {
        const state = other === tab ? "active" : "inactive";
        other.setAttribute("aria-selected", String(other === tab));
        other.tabIndex = other === tab ? 0 : -1;
        other.dataset.state = state;
        const panel = document.getElementById(other.getAttribute("aria-controls") ?? "");
        if (panel) panel.dataset.state = state;
      }
    };
    list.addEventListener("click", (event) => {
      const tab = event.target instanceof Element ? event.target.closest<HTMLElement>('[role="tab"]') : null;
      if (tab) select(tab);
    });
    list.addEventListener("keydown", (event) => {
      const index = tabs.indexOf(document.activeElement as HTMLElement);
      const moves: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 };
      if (index < 0 || !(event.key in moves)) return;
      event.preventDefault();
      const next = tabs[(moves[event.key] + tabs.length) % tabs.length];
      select(next);
      next.focus();
    });
  }

  function trackCurrentSection(links: HTMLAnchorElement[]) {
    const setCurrent = (id: string) => {
      for (const link of links) {
        if (link.hash === `#${id}`) link.setAttribute("aria-current", "location");
        else link.removeAttribute("aria-current");
      }
    };
    const observer = new IntersectionObserver(
      (entries) => {
        const visible = entries.filter((entry) => entry.isIntersecting).sort((a, b) => a.boundingClientRect.top - b.boundingClientRect.top);
        if (visible[0]) setCurrent(visible[0].target.id);
      },
      { rootMargin: "-80px 0px -65% 0px" },
    );
    for (const id of new Set(links.map((link) => link.hash.slice(1)))) {
      const section = document.getElementById(id);
      if (section) observer.observe(section);
    }
  }

  function closeMenus(except: EventTarget | null, restoreFocus: boolean) {
    for (const menu of document.querySelectorAll<HTMLDetailsElement>("details[data-dismissable][open]")) {
      if (except instanceof Node && menu.contains(except)) continue;
      menu.open = false;
      if (restoreFocus) menu.querySelector("summary")?.focus();
    }
  }

  document.addEventListener("click", (event) => {
    closeMenus(event.target, false);
    const button = event.target instanceof Element ? event.target.closest<HTMLElement>("button[data-copy]") : null;
    if (button) void copyCode(button);
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") closeMenus(null, true);
    if (event.altKey && event.code === "KeyT") region?.focus();
  });
  for (const list of document.querySelectorAll<HTMLElement>('[role="tablist"]')) enableTabs(list);
  const sectionLinks = Array.from(document.querySelectorAll<HTMLAnchorElement>('[data-section-nav] a[href^="#"]'));
  if (sectionLinks.length > 0 && "IntersectionObserver" in window) trackCurrentSection(sectionLinks);

  const systemDark = window.matchMedia("(prefers-color-scheme: dark)");
  systemDark.addEventListener("change", () => {
    let stored: string | null = null;
    try {
      stored = localStorage.getItem(options.themeStorageKey);
    } catch {
      // Storage can be blocked; the system preference then decides.
    }
    if (stored !== "light" && stored !== "dark") document.documentElement.classList.toggle("dark", systemDark.matches);
  });

  if (options.flash) showToast(options.flash.type, options.flash.title, options.flash.description);
}

/** The inline script's source; `<` is escaped so no string in the options can close the script tag. */
export function publicPageScript(flash: Toast | null): string {
  const options: PublicPageScriptOptions = { flash, toastDurationMs: TOAST_DURATION_MS, copyToasts: COPY_TOASTS, themeStorageKey: THEME_STORAGE_KEY };
  const json = JSON.stringify(options).replace(/</g, "\\u003c");
  return `(${enhancePublicPage.toString()})(${json});`;
}
