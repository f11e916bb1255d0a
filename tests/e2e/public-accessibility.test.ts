import type { Result } from "axe-core";
import type { Browser, Page } from "playwright-core";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { test } from "../helpers/fixtures.ts";
import { describeViolation, injectAxe, runAxe, type Violation } from "../helpers/axe.ts";
import { screenshotPath } from "../helpers/browser.ts";
import type { TestServer } from "../helpers/server.ts";

const SCHEMES = ["dark", "light"] as const;
const VIEWPORTS = [
  { name: "desktop", width: 1366, height: 900 },
  { name: "mobile", width: 375, height: 812 },
];

const PAGES = [
  { name: "home", path: "/", status: 200 },
  { name: "fivem-cdn", path: "/fivem-cdn", status: 200 },
  { name: "pricing", path: "/pricing", status: 200 },
  { name: "docs", path: "/docs", status: 200 },
  { name: "about", path: "/about", status: 200 },
  { name: "terms", path: "/terms", status: 200 },
  { name: "privacy", path: "/privacy", status: 200 },
  { name: "status", path: "/status", status: 200 },
  { name: "report", path: "/report", status: 200 },
  { name: "404", path: "/no-such-page", status: 404 },
];

let server: TestServer;
let browser: Browser;

test.beforeAll(async ({ server: started, browser: launched }) => {
  server = started;
  browser = launched;
});

type Rgb = [number, number, number];

function luminance([r, g, b]: Rgb) {
  const channel = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

function contrastRatio(a: Rgb, b: Rgb) {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

const toHex = (rgb: Rgb) => `#${rgb.map((c) => Math.round(c * 255).toString(16).padStart(2, "0")).join("")}`;

/**
 * axe leaves text over a gradient (the hero glow, the call-to-action band) "incomplete": it cannot know
 * the colour behind the glyphs. Measure it instead: hide the text, screenshot its content box, and
 * take the worst contrast between the text colour and any pixel behind it.
 */
async function measureTextOverGradients(page: Page, state: string): Promise<Violation[]> {
  const nodes = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ incomplete: Result[] }> } }).axe;
    const results = await axe.run(document, { runOnly: { type: "rule", values: ["color-contrast"] }, resultTypes: ["incomplete"] });
    return results.incomplete.flatMap((rule) =>
      rule.nodes.filter((node) => ["bgGradient", "bgImage"].includes(node.any[0]?.data?.messageKey)).map((node) => ({ target: node.target.join(" "), html: node.html })),
    );
  });
  await page.addStyleTag({ content: "[data-contrast-probe], [data-contrast-probe] * { color: transparent !important; text-shadow: none !important; }" });
  const found: Violation[] = [];
  for (const node of nodes) {
    const element = page.locator(node.target).first();
    await element.scrollIntoViewIfNeeded();
    const text = await element.evaluate((el) => {
      const s = getComputedStyle(el);
      const box = el.getBoundingClientRect();
      const px = (v: string) => parseFloat(v) || 0;
      // The computed colour may be oklch(); a canvas turns any CSS colour into sRGB bytes.
      const canvas = document.createElement("canvas").getContext("2d", { willReadFrequently: true })!;
      canvas.fillStyle = s.color;
      canvas.fillRect(0, 0, 1, 1);
      const [r, g, b, a] = canvas.getImageData(0, 0, 1, 1).data;
      el.setAttribute("data-contrast-probe", "");
      return {
        color: [r / 255, g / 255, b / 255, a / 255] as const,
        inset: s.display === "inline"
          ? { left: 0, top: 0, right: 0, bottom: 0 }
          : { left: px(s.borderLeftWidth) + px(s.paddingLeft), top: px(s.borderTopWidth) + px(s.paddingTop), right: px(s.borderRightWidth) + px(s.paddingRight), bottom: px(s.borderBottomWidth) + px(s.paddingBottom) },
        size: { width: box.width, height: box.height },
        fontSize: px(s.fontSize),
        fontWeight: Number(s.fontWeight),
      };
    });
    const shot = await element.screenshot({ animations: "disabled" });
    await element.evaluate((el) => el.removeAttribute("data-contrast-probe"));
    const { data, info } = await sharp(shot).raw().toBuffer({ resolveWithObject: true });
    const scale = info.width / text.size.width;
    const [fr, fg, fb, fa] = text.color;
    let worst = { ratio: Infinity, bg: [0, 0, 0] as Rgb, fg: [0, 0, 0] as Rgb };
    for (let y = Math.ceil(text.inset.top * scale); y < info.height - Math.ceil(text.inset.bottom * scale); y++) {
      for (let x = Math.ceil(text.inset.left * scale); x < info.width - Math.ceil(text.inset.right * scale); x++) {
        const i = (y * info.width + x) * info.channels;
        const bg: Rgb = [data[i] / 255, data[i + 1] / 255, data[i + 2] / 255];
        const fgOnBg: Rgb = [fr * fa + bg[0] * (1 - fa), fg * fa + bg[1] * (1 - fa), fb * fa + bg[2] * (1 - fa)];
        const ratio = contrastRatio(fgOnBg, bg);
        if (ratio < worst.ratio) worst = { ratio, bg, fg: fgOnBg };
      }
    }
    const large = text.fontSize >= 24 || (text.fontSize >= 18.66 && text.fontWeight >= 700);
    const needed = large ? 3 : 4.5;
    if (worst.ratio < needed) {
      found.push({
        state,
        id: "color-contrast",
        impact: "serious",
        help: "Text over a gradient must meet minimum color contrast ratio thresholds (measured from the pixels behind it)",
        target: node.target,
        html: node.html.replace(/\s+/g, " ").slice(0, 140),
        contrast: { fgColor: toHex(worst.fg), bgColor: toHex(worst.bg), contrastRatio: Math.round(worst.ratio * 100) / 100, expectedContrastRatio: `${needed}:1`, fontSize: `${text.fontSize}px`, fontWeight: String(text.fontWeight) },
      });
    }
  }
  return found;
}

/**
 * Colour contrast is only checked on what is visible, so the page is audited twice: as it loads, and
 * with every visible <details> opened (docs "On this page", the pricing FAQ, then the mobile menu last,
 * because its dropdown covers what is below it).
 */
async function openDisclosures(page: Page) {
  const summaries = await page.locator("details:not([open]) > summary").all();
  for (const summary of summaries.reverse()) {
    if (await summary.isVisible()) await summary.click();
  }
}


describe("public pages pass axe-core's WCAG 2.1 A/AA rules", () => {
  for (const page of PAGES) {
    for (const colorScheme of SCHEMES) {
      for (const viewport of VIEWPORTS) {
        const label = `${page.path} · ${colorScheme} · ${viewport.name} ${viewport.width}px`;
        it(label, async () => {
          const context = await browser.newContext({ viewport, colorScheme });
          const tab = await context.newPage();
          const res = await tab.goto(`${server.url}${page.path}`, { waitUntil: "networkidle" });
          expect(res?.status()).toBe(page.status);
          expect(await tab.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(colorScheme === "dark");
          await tab.screenshot({ path: screenshotPath(`a11y-${page.name}-${colorScheme}-${viewport.name}`), fullPage: true });

          await injectAxe(tab);
          const found = [...(await runAxe(tab, "as loaded")), ...(await measureTextOverGradients(tab, "as loaded, over a gradient"))];
          await openDisclosures(tab);
          const seen = new Set(found.map((v) => `${v.id} ${v.target}`));
          for (const v of await runAxe(tab, "disclosures open")) {
            if (!seen.has(`${v.id} ${v.target}`)) found.push(v);
          }
          await context.close();

          const message = `${found.length} accessibility violation(s) on ${label}:\n${found.map(describeViolation).join("\n")}\n`;
          expect(found.length, message).toBe(0);
        }, 60_000);
      }
    }
  }
});

interface FocusStyle {
  index: number | null;
  name: string;
  indicator: string;
  inHeader: boolean;
}

/** Outline and box-shadow (Tailwind's ring) are what draw a focus indicator; transitions are finished first. */
function focusStyleOf(page: Page, selector: string | null) {
  return page.evaluate((sel) => {
    for (const animation of document.getAnimations()) animation.finish();
    const el = (sel ? document.querySelector(sel) : document.activeElement) as HTMLElement | null;
    if (!el) return null;
    const s = getComputedStyle(el);
    const index = el.getAttribute("data-focus-probe");
    return {
      index: index === null ? null : Number(index),
      name: (el.getAttribute("aria-label") ?? el.textContent ?? "").trim().replace(/\s+/g, " "),
      indicator: `outline: ${s.outlineStyle} ${s.outlineWidth} ${s.outlineColor} · box-shadow: ${s.boxShadow}`,
      inHeader: Boolean(el.closest("body header")),
    };
  }, selector);
}

describe("keyboard focus on the public pages", () => {
  for (const page of PAGES.filter((p) => p.status === 200)) {
    for (const colorScheme of SCHEMES) {
      for (const viewport of VIEWPORTS) {
        const label = `${page.path} · ${colorScheme} · ${viewport.name}`;
        it(`${label}: Tab reaches "Skip to content" first, and every header control shows a focus indicator`, async () => {
          const context = await browser.newContext({ viewport, colorScheme });
          const tab = await context.newPage();
          await tab.goto(`${server.url}${page.path}`, { waitUntil: "networkidle" });

          const count = await tab.evaluate(() => {
            const focusable = 'a[href], button:not([disabled]), input:not([disabled]), select, textarea, summary, [tabindex]:not([tabindex="-1"])';
            const controls = [...document.querySelectorAll<HTMLElement>(`body header :is(${focusable})`)].filter((el) => el.checkVisibility());
            controls.forEach((el, i) => el.setAttribute("data-focus-probe", String(i)));
            return controls.length;
          });
          const unfocused: FocusStyle[] = [];
          for (let i = 0; i < count; i++) unfocused.push((await focusStyleOf(tab, `[data-focus-probe="${i}"]`))!);

          await tab.keyboard.press("Tab");
          const first = await tab.evaluate(() => {
            const el = document.activeElement as HTMLElement;
            const box = el.getBoundingClientRect();
            return { text: el.textContent?.trim(), href: el.getAttribute("href"), visible: box.width > 20 && box.height > 20 };
          });
          expect(first).toEqual({ text: "Skip to content", href: "#main", visible: true });

          const problems: string[] = [];
          const reached = new Set<number>();
          for (let presses = 0; presses < 40; presses++) {
            const focused = await focusStyleOf(tab, null);
            if (!focused?.inHeader || focused.index === null) break;
            reached.add(focused.index);
            const before = unfocused[focused.index];
            if (focused.indicator === before.indicator) problems.push(`"${focused.name}" looks the same focused and unfocused (${focused.indicator})`);
            await tab.keyboard.press("Tab");
          }
          for (const control of unfocused) {
            if (control.index !== null && !reached.has(control.index)) problems.push(`"${control.name}" is never reached with Tab`);
          }
          await context.close();
          expect(problems, `header focus problems on ${label}`).toEqual([]);
        }, 60_000);
      }
    }
  }

  it("the 404 page's only link shows a focus indicator", async () => {
    const context = await browser.newContext();
    const tab = await context.newPage();
    await tab.goto(`${server.url}/no-such-page`, { waitUntil: "networkidle" });
    const unfocused = await focusStyleOf(tab, 'a[href="/"]');
    await tab.keyboard.press("Tab");
    const focused = await focusStyleOf(tab, null);
    await context.close();
    expect(focused?.name).toBe("Return to Home");
    expect(focused?.indicator).not.toBe(unfocused?.indicator);
  });
});
