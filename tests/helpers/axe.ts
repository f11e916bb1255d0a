import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Result } from "axe-core";
import type { Page } from "playwright-core";

const require = createRequire(import.meta.url);
export const AXE_SOURCE = fs.readFileSync(path.join(path.dirname(require.resolve("axe-core")), "axe.min.js"), "utf8");
export const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

export interface Violation {
  state: string;
  id: string;
  impact: string;
  help: string;
  target: string;
  html: string;
  contrast?: { fgColor: string; bgColor: string; contrastRatio: number; expectedContrastRatio: string; fontSize: string; fontWeight: string };
}

/** axe must run inside the page. The CSP refuses inline scripts without the nonce, so fall back to evaluating the source. */
export async function injectAxe(page: Page) {
  await page.addScriptTag({ content: AXE_SOURCE }).catch(() => undefined);
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
}

export async function runAxe(page: Page, state: string): Promise<Violation[]> {
  const violations = await page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: Result[] }> } }).axe;
    const results = await axe.run(document, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] });
    return results.violations;
  }, WCAG_TAGS);
  return violations.flatMap((rule) =>
    rule.nodes.map((node) => ({
      state,
      id: rule.id,
      impact: node.impact ?? rule.impact ?? "unknown",
      help: rule.help,
      target: node.target.join(" "),
      html: node.html.replace(/\s+/g, " ").slice(0, 140),
      contrast: rule.id === "color-contrast" ? node.any[0]?.data : undefined,
    })),
  );
}

export function describeViolation(v: Violation) {
  const contrast = v.contrast
    ? ` — ${v.contrast.fgColor} on ${v.contrast.bgColor} is ${v.contrast.contrastRatio}:1, needs ${v.contrast.expectedContrastRatio} (${v.contrast.fontSize}, weight ${v.contrast.fontWeight})`
    : "";
  return `  [${v.impact}] ${v.id} (${v.state}): ${v.help}\n      at ${v.target}${contrast}\n      ${v.html}`;
}
