import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInBrowserContext, signUpAndSignIn } from "../helpers/auth.ts";
import { deliver, PRICE_BUSINESS, startFakeStripe, stripeEnv } from "../helpers/billing.ts";
import { screenshotPath } from "../helpers/browser.ts";
import { signedEvent, type FakeStripe } from "../helpers/fake-stripe.ts";
import { stashTest } from "../helpers/fixtures.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let fake: FakeStripe;
let server: TestServer;
let plain: TestServer;
let browser: Browser;

// The Stripe stand-in starts first; the fixture's server is pointed at it. `plain` has payments off.
const test = stashTest(() => stripeEnv(fake));

beforeAll(async () => {
  fake = await startFakeStripe();
});

test.beforeAll(async ({ server: started, browser: launched }) => {
  server = started;
  browser = launched;
  plain = await startTestServer();
});

afterAll(async () => {
  await plain?.close();
  await fake?.close();
});

const planButton = (page: Page, plan: string) => page.locator(`li[data-plan="${plan}"] button`);
const toastVisible = (page: Page, text: string) => expect.poll(() => page.getByText(text).isVisible(), { timeout: 10_000 }).toBe(true);

async function openedTab(page: Page, click: () => Promise<void>) {
  const popup = page.waitForEvent("popup");
  await click();
  const tab = await popup;
  await tab.waitForURL(/\/(checkout|portal)\//);
  const url = tab.url();
  await tab.close();
  return url;
}

describe("billing screen", { timeout: 180_000 }, () => {
  it("with Stripe: checkout in a new tab, return flags, plan buttons, portal and storage purchase", async () => {
    const who = await signUpAndSignIn(server, { displayName: "Tony Montana" });
    const context = await signedInBrowserContext(browser, server, who, { viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${server.url}/billing`);
    await page.waitForLoadState("networkidle");

    expect(await page.getByTestId("current-plan-name").textContent()).toBe("Street");
    expect(await planButton(page, "free").textContent()).toBe("Current Plan");
    expect(await planButton(page, "free").isDisabled()).toBe(true);
    for (const tier of ["starter", "professional", "business"]) {
      expect(await planButton(page, tier).textContent()).toBe("Upgrade");
    }
    expect(await page.getByTestId("payments-disabled").count()).toBe(0);
    await page.screenshot({ path: screenshotPath("billing-desktop"), fullPage: true });

    const checkoutUrl = await openedTab(page, () => planButton(page, "starter").click());
    expect(checkoutUrl).toMatch(new RegExp(`^${fake.url}/checkout/cs_test_`));

    // Stripe confirms the subscription by webhook; the return URL only shows the toast.
    const customer = (await server.ctx.db.selectFrom("subscriptions").select("stripe_customer_id").where("team_id", "=", who.teamId).executeTakeFirstOrThrow()).stripe_customer_id!;
    const sub = fake.setSubscription({ customer, priceId: PRICE_BUSINESS, metadata: { team_id: who.teamId } });
    expect((await deliver(server, signedEvent("customer.subscription.created", fake.subscriptionObject(sub)))).status).toBe(200);
    await page.goto(`${server.url}/billing?success=true`);
    await toastVisible(page, "Subscription successful!");
    await page.waitForURL(`${server.url}/billing`);
    await expect.poll(() => page.getByTestId("current-plan-name").textContent()).toBe("Boss");
    expect(await page.getByTestId("storage-quota").textContent()).toContain("of 200 GB");
    expect(await planButton(page, "business").textContent()).toBe("Current Plan");
    expect(await planButton(page, "free").textContent()).toBe("Free Hosting");
    expect(await planButton(page, "free").isDisabled()).toBe(true);
    expect(await planButton(page, "professional").textContent()).toBe("Subscribe");

    const portalUrl = await openedTab(page, () => page.getByRole("button", { name: "Manage Subscription" }).click());
    expect(portalUrl).toMatch(new RegExp(`^${fake.url}/portal/`));

    const amount = page.getByLabel("Storage (GB)");
    expect(await amount.inputValue()).toBe("10");
    expect(await page.getByTestId("storage-total").textContent()).toBe("Total: £1.00");
    await amount.fill("0");
    expect(await page.getByRole("button", { name: /^Purchase/ }).isDisabled()).toBe(true);
    await amount.fill("25");
    await expect.poll(() => page.getByTestId("storage-total").textContent()).toBe("Total: £2.50");
    const storageUrl = await openedTab(page, () => page.getByRole("button", { name: "Purchase 25 GB" }).click());
    expect(storageUrl).toMatch(new RegExp(`^${fake.url}/checkout/`));
    expect(fake.requestsTo("/v1/checkout/sessions").at(-1)!.params.metadata).toMatchObject({ storage_gb: "25", tier: "business" });

    fake.failNextCheckout = "Your card was declined.";
    const tabs = context.pages().length;
    await page.getByRole("button", { name: "Purchase 25 GB" }).click();
    await toastVisible(page, "Purchase failed");
    expect(await page.getByText("Your card was declined.").isVisible()).toBe(true);
    await expect.poll(() => context.pages().length).toBe(tabs);

    await page.goto(`${server.url}/billing?storage_canceled=true`);
    await toastVisible(page, "Storage purchase canceled");
    await page.goto(`${server.url}/billing?canceled=true`);
    await toastVisible(page, "Subscription canceled");
    await context.close();
  });

  it("storage_success refreshes the quota once the webhook has granted the add-on", async () => {
    const who = await signUpAndSignIn(server);
    const grant = signedEvent("checkout.session.completed", {
      id: "cs_e2e_storage",
      object: "checkout.session",
      mode: "payment",
      payment_status: "paid",
      metadata: { kind: "storage_addon", team_id: who.teamId, storage_gb: "15", tier: "free" },
    });
    expect((await deliver(server, grant)).status).toBe(200);
    const context = await signedInBrowserContext(browser, server, who, { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await page.goto(`${server.url}/billing?storage_success=true`);
    await toastVisible(page, "Storage purchased successfully!");
    expect(await page.getByTestId("storage-quota").textContent()).toContain("of 20 GB");
    expect(await page.getByText("+15 GB extra storage until").isVisible()).toBe(true);
    await page.waitForTimeout(500);
    await page.screenshot({ path: screenshotPath("billing-mobile"), fullPage: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await context.close();
  });

  it("without Stripe: shows the plans and says payments are not enabled", async () => {
    const who = await signUpAndSignIn(plain);
    const context = await signedInBrowserContext(browser, plain, who, { viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${plain.url}/billing`);
    await page.waitForLoadState("networkidle");
    expect(await page.getByTestId("payments-disabled").textContent()).toContain("Payments are not enabled on this instance");
    expect(await page.locator("li[data-plan]").count()).toBe(4);
    for (const tier of ["free", "starter", "professional", "business"]) expect(await planButton(page, tier).isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: /^Purchase/ }).isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "Manage Subscription" }).count()).toBe(0);
    await page.screenshot({ path: screenshotPath("billing-no-stripe-desktop"), fullPage: true });
    await page.setViewportSize({ width: 375, height: 812 });
    await page.screenshot({ path: screenshotPath("billing-no-stripe-mobile"), fullPage: true });
    await context.close();
  });

  it("without Stripe: an admin sets a user's plan and extra storage from /admin/users", async () => {
    const admin = await signUpAndSignIn(plain, { role: "admin", displayName: "Ops Admin" });
    const target = await signUpAndSignIn(plain, { displayName: "Server Owner" });
    const context = await signedInBrowserContext(browser, plain, admin, { viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${plain.url}/admin/users`);
    await page.waitForLoadState("networkidle");
    const card = page.locator(`[data-user-id="${target.user.id}"]`);
    await card.getByLabel("Plan for Server Owner").selectOption("business");
    await card.getByLabel("Extra storage in GB for Server Owner").fill("30");
    await card.getByRole("button", { name: "Set plan" }).click();
    await toastVisible(page, "Plan updated");
    await page.screenshot({ path: screenshotPath("billing-admin-users-desktop"), fullPage: true });
    await page.setViewportSize({ width: 375, height: 812 });
    await page.screenshot({ path: screenshotPath("billing-admin-users-mobile"), fullPage: true });
    const owner = await signedInBrowserContext(browser, plain, target, { viewport: { width: 1280, height: 900 } });
    const ownerPage = await owner.newPage();
    await ownerPage.goto(`${plain.url}/billing`);
    expect(await ownerPage.getByTestId("current-plan-name").textContent()).toBe("Boss");
    expect(await ownerPage.getByTestId("storage-quota").textContent()).toContain("of 230 GB");
    await owner.close();
    await context.close();
  });
});
