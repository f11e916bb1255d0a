import type { Page } from "playwright-core";
import { describe, expect } from "vitest";
import { signedInBrowserContext, signUpAndSignIn, uniqueEmail } from "../helpers/auth.ts";
import { screenshotPath } from "../helpers/browser.ts";
import { test } from "../helpers/fixtures.ts";
import { waitForOutboxMail } from "../helpers/mail.ts";
import { form, png } from "../helpers/upload-fixtures.ts";

const DESKTOP = { width: 1366, height: 900 };
const MOBILE = { width: 375, height: 812 };
const toast = (page: Page, title: string) => page.locator("[data-sonner-toast]").filter({ hasText: title }).first();
const sidebar = (page: Page) => page.getByRole("navigation", { name: "Portal" });

async function invitationPath(dataDir: string, email: string): Promise<string> {
  const mail = await waitForOutboxMail(dataDir, email, "Join ");
  const match = /https?:\/\/[^\s"<>]+(\/invitations\/[0-9A-Za-z]+)/.exec(mail.body);
  if (!match) throw new Error(`no invitation link in:\n${mail.body}`);
  return match[1]!;
}

describe("teams in the browser", () => {
  test("an owner invites a developer and a member; each sees the team through their role", { timeout: 120_000 }, async ({ server, browser }) => {
    const owner = await signUpAndSignIn(server, { displayName: "Chief Ramos" });
    const ownerContext = await signedInBrowserContext(browser, server, owner, { viewport: DESKTOP });
    const ownerPage = await ownerContext.newPage();

    // The owner makes a server and uploads a file, so there is something to share.
    await ownerPage.goto(`${server.url}/servers?new=1`);
    await ownerPage.getByLabel("Server Name").fill("Mission Row RP");
    await ownerPage.getByRole("button", { name: "Create Server" }).click();
    await expect.poll(() => toast(ownerPage, "Server created").isVisible()).toBe(true);
    const serverId = (await server.ctx.db.selectFrom("servers").select("id").where("name", "=", "Mission Row RP").executeTakeFirstOrThrow()).id;
    const key = await server.request("/api/keys", {
      method: "POST",
      headers: { Cookie: owner.cookie, Origin: server.url, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "Phone", server_id: serverId }),
    });
    const secret = ((await key.json()) as { api_key: string }).api_key;
    const uploaded = await server.request("/api/upload", { method: "POST", headers: { "x-api-key": secret }, body: form([{ field: "file", data: await png(), filename: "mugshot.png", type: "image/png" }]) });
    expect(uploaded.status).toBe(201);

    // Invite a developer from the Team page, with the keyboard-friendly native form.
    const developerEmail = uniqueEmail("dev");
    await ownerPage.goto(`${server.url}/team`);
    await ownerPage.getByLabel("E-mail").fill(developerEmail);
    await ownerPage.getByLabel("Role").selectOption("developer");
    await ownerPage.getByRole("button", { name: "Send invitation" }).click();
    await expect.poll(() => toast(ownerPage, "Invitation sent").isVisible()).toBe(true);
    await expect.poll(() => ownerPage.getByRole("list", { name: "Pending invitations" }).getByText(developerEmail).isVisible()).toBe(true);
    await ownerPage.screenshot({ path: screenshotPath("team-owner"), fullPage: true });

    // The developer signs up with that address and accepts through the mailed link.
    const developer = await signUpAndSignIn(server, { email: developerEmail, displayName: "Dev Diaz" });
    const developerContext = await signedInBrowserContext(browser, server, developer, { viewport: MOBILE });
    const developerPage = await developerContext.newPage();
    await developerPage.goto(`${server.url}${await invitationPath(server.dataDir, developerEmail)}`);
    await expect.poll(() => developerPage.getByRole("heading", { name: "Join Chief Ramos" }).isVisible()).toBe(true);
    await developerPage.screenshot({ path: screenshotPath("team-invitation-375"), fullPage: true });
    await developerPage.getByRole("button", { name: "Accept" }).click();
    await developerPage.waitForURL(`${server.url}/dashboard`);
    await expect.poll(() => toast(developerPage, "Welcome to the team").isVisible()).toBe(true);
    // The header names the team; the sidebar offers keys but neither billing nor the audit log.
    expect(await developerPage.getByRole("button", { name: /Current team: Chief Ramos/ }).isVisible()).toBe(true);
    await developerPage.getByRole("button", { name: "Toggle sidebar" }).click();
    await expect.poll(() => sidebar(developerPage).getByRole("link", { name: "API Keys" }).isVisible()).toBe(true);
    expect(await sidebar(developerPage).getByRole("link", { name: "Billing" }).count()).toBe(0);
    expect(await sidebar(developerPage).getByRole("link", { name: "Audit Log" }).count()).toBe(0);
    await developerPage.screenshot({ path: screenshotPath("team-developer-sidebar-375"), fullPage: true });
    await developerPage.keyboard.press("Escape");

    // The switcher takes the developer back to their own team, where billing is theirs.
    await developerPage.goto(`${server.url}/dashboard`);
    await developerPage.getByRole("button", { name: /Current team: Chief Ramos/ }).click();
    await Promise.all([
      developerPage.waitForResponse((res) => res.url().includes("/team/switch") && res.request().method() === "POST"),
      developerPage.getByRole("menuitem", { name: /Dev Diaz/ }).click(),
    ]);
    await expect.poll(() => developerPage.getByRole("button", { name: /Current team: Dev Diaz/ }).isVisible()).toBe(true);
    await developerPage.goto(`${server.url}/billing`);
    await expect.poll(() => developerPage.getByRole("heading", { name: "Server Hosting Plans" }).isVisible()).toBe(true);

    // A member (invited the same way) sees the file but no way to change or delete it.
    const memberEmail = uniqueEmail("member");
    await ownerPage.getByLabel("E-mail").fill(memberEmail);
    await ownerPage.getByLabel("Role").selectOption("member");
    await ownerPage.getByRole("button", { name: "Send invitation" }).click();
    await expect.poll(() => ownerPage.getByRole("list", { name: "Pending invitations" }).getByText(memberEmail).isVisible()).toBe(true);
    const member = await signUpAndSignIn(server, { email: memberEmail, displayName: "Reviewer Rae" });
    const memberContext = await signedInBrowserContext(browser, server, member, { viewport: DESKTOP });
    const memberPage = await memberContext.newPage();
    await memberPage.goto(`${server.url}${await invitationPath(server.dataDir, memberEmail)}`);
    await memberPage.getByRole("button", { name: "Accept" }).click();
    await memberPage.waitForURL(`${server.url}/dashboard`);
    await memberPage.goto(`${server.url}/gallery`);
    await expect.poll(() => memberPage.getByText("mugshot.png").first().isVisible()).toBe(true);
    await memberPage.getByRole("button", { name: "Select all" }).click();
    // The selection is live (its zip link shows), and still no delete for this role.
    await expect.poll(() => memberPage.getByRole("link", { name: "Download zip" }).isVisible()).toBe(true);
    expect(await memberPage.getByRole("button", { name: /Delete selected/ }).count()).toBe(0);
    await memberPage.screenshot({ path: screenshotPath("team-member-gallery"), fullPage: true });

    // The owner sees both members with their roles, and can tailor the member's permissions.
    await ownerPage.reload();
    const rows = ownerPage.getByRole("list", { name: "Members" }).getByTestId("member-row");
    await expect.poll(() => rows.count()).toBe(3);
    const rae = rows.filter({ hasText: "Reviewer Rae" });
    await rae.getByRole("button", { name: "Edit access" }).click();
    await rae.getByLabel("Delete media").check();
    await rae.getByRole("button", { name: "Save access" }).click();
    await expect.poll(() => toast(ownerPage, "Access updated").isVisible()).toBe(true);
    await expect.poll(() => rae.getByTestId("member-permissions").textContent()).toContain("Delete media");
    await memberPage.reload();
    await memberPage.getByRole("button", { name: "Select all" }).click();
    expect(await memberPage.getByRole("button", { name: /Delete selected/ }).isVisible()).toBe(true);

    await Promise.all([ownerContext.close(), developerContext.close(), memberContext.close()]);
  });
});
