import type { Browser } from "playwright-core";
import { describe, expect, it } from "vitest";
import { test } from "../helpers/fixtures.ts";
import { createApiKey } from "../../app/services/api-keys/keys.server.ts";
import { createServer } from "../../app/services/servers/servers.server.ts";
import { signedInBrowserContext, signUpAndSignIn, type SignedInUser } from "../helpers/auth.ts";
import { describeViolation, injectAxe, runAxe } from "../helpers/axe.ts";
import { screenshotPath } from "../helpers/browser.ts";
import type { TestServer } from "../helpers/server.ts";
import { form, png } from "../helpers/upload-fixtures.ts";
import type { FileId, ServerId } from "../../app/lib/ids.ts";

let server: TestServer;
let browser: Browser;
let owner: SignedInUser;
let admin: SignedInUser;
let serverId: ServerId;
let fileId: FileId;

test.beforeAll(async ({ server: started, browser: launched }) => {
  server = started;
  browser = launched;
  owner = await signUpAndSignIn(server, { displayName: "Nova Owner" });
  admin = await signUpAndSignIn(server, { displayName: "Ada Admin", role: "admin" });
  const created = await createServer(server.ctx.db, { teamId: owner.teamId, name: "Nova City RP", description: "Serious roleplay" });
  serverId = created.id;
  const { secret } = await createApiKey(server.ctx.db, { serverId, teamId: owner.teamId, name: "Phone uploads" });
  // Real files, so the gallery, storage and analytics screens show cards, rows and charts.
  for (const [i, category] of ["phone_camera", "police_evidence", "security_camera"].entries()) {
    const res = await server.request("/api/upload", {
      method: "POST",
      headers: { "x-api-key": secret },
      body: form([
        { field: "category", data: category },
        { field: "player_name", data: "Niko" },
        { field: "file", data: await png(64 + i, 48), filename: `shot-${i}.png` },
      ]),
    });
    expect(res.status).toBe(201);
    fileId = ((await res.json()) as { id: FileId }).id;
  }
  // A report, so the admin queue shows a card rather than its empty state.
  const file = await server.ctx.db.selectFrom("files").select(["category", "filename"]).where("id", "=", fileId).executeTakeFirstOrThrow();
  const reported = await server.request("/api/reports", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ url: `${server.url}/f/${serverId}/${file.category}/${file.filename}`, reason: "other", details: "Test report" }),
  });
  expect(reported.status).toBe(201);
});

const OWNER_PAGES = ["/dashboard", "/servers", "/servers/:id", "/api-keys", "/gallery", "/gallery/:file", "/v/:file", "/upload", "/storage", "/billing", "/analytics", "/cases", "/audit", "/team", "/logs", "/settings"];
const ADMIN_PAGES = ["/admin", "/admin/servers", "/admin/users", "/admin/teams", "/admin/reports"];
const STATES = [
  { scheme: "dark", viewport: { width: 1366, height: 900 }, name: "desktop" },
  { scheme: "light", viewport: { width: 1366, height: 900 }, name: "desktop" },
  { scheme: "dark", viewport: { width: 375, height: 812 }, name: "mobile" },
] as const;

async function audit(who: SignedInUser | null, path: string) {
  const problems: string[] = [];
  for (const state of STATES) {
    const label = `${path} · ${state.scheme} · ${state.name}`;
    const options = { viewport: state.viewport, colorScheme: state.scheme };
    const context = who ? await signedInBrowserContext(browser, server, who, options) : await browser.newContext(options);
    try {
      const page = await context.newPage();
      const res = await page.goto(`${server.url}${path.replace(":id", serverId).replace(":file", fileId)}`, { waitUntil: "networkidle" });
      expect(res?.status(), label).toBe(200);
      expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(state.scheme === "dark");
      await page.screenshot({ path: screenshotPath(`a11y-portal${path.replace(/[/:]+/g, "-")}-${state.scheme}-${state.name}`), fullPage: true });
      await injectAxe(page);
      const found = await runAxe(page, label);
      problems.push(...found.map(describeViolation));
    } finally {
      await context.close();
    }
  }
  expect(problems.length, `${problems.length} accessibility violation(s):\n${problems.join("\n")}\n`).toBe(0);
}

describe("portal, admin and sign-in pages pass axe-core's WCAG 2.1 A/AA rules in both themes and at 375 px", () => {
  for (const path of OWNER_PAGES) it(path, () => audit(owner, path), 90_000);
  for (const path of ADMIN_PAGES) it(path, () => audit(admin, path), 90_000);
  it("/auth", () => audit(null, "/auth"), 90_000);
});
