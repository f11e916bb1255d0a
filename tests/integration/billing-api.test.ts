import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GB } from "../../app/lib/plans.ts";
import { reserveQuota } from "../../app/services/billing/quota.server.ts";
import { setTeamPlan } from "../../app/services/billing/subscriptions.server.ts";
import { signUpAndSignIn, type SignedInUser } from "../helpers/auth.ts";
import { PRICE_PROFESSIONAL, PRICE_STARTER, startFakeStripe, stripeEnv } from "../helpers/billing.ts";
import type { FakeStripe } from "../helpers/fake-stripe.ts";
import { stashTest } from "../helpers/fixtures.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let fake: FakeStripe;
let server: TestServer;
let plain: TestServer;

// The Stripe stand-in starts first; the fixture's server is pointed at it. `plain` has payments off.
const test = stashTest(() => stripeEnv(fake));

beforeAll(async () => {
  fake = await startFakeStripe();
});

test.beforeAll(async ({ server: started }) => {
  server = started;
  plain = await startTestServer();
});

afterAll(async () => {
  await plain?.close();
  await fake?.close();
});

function call(target: TestServer, action: string, body: unknown, who?: SignedInUser, headers: Record<string, string> = {}) {
  return target.request(`/api/billing/${action}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: target.url, ...(who ? { Cookie: who.cookie } : {}), ...headers },
    body: JSON.stringify(body),
  });
}

interface CheckoutParams {
  mode: string;
  customer: string;
  client_reference_id: string;
  success_url: string;
  cancel_url: string;
  metadata: Record<string, string>;
  subscription_data: { metadata: Record<string, string> };
  line_items: { price?: string; quantity: string; price_data?: { unit_amount: string; currency: string } }[];
}

const lastCheckout = () => fake.requestsTo("/v1/checkout/sessions").at(-1)!.params as unknown as CheckoutParams;

describe("billing endpoints with Stripe configured", () => {
  it("create-checkout starts a subscription Checkout for the tier and answers its url", async () => {
    const who = await signUpAndSignIn(server);
    const res = await call(server, "create-checkout", { tier: "starter" }, who);
    expect(res.status).toBe(200);
    const { url } = await res.json();
    expect(url).toMatch(new RegExp(`^${fake.url}/checkout/cs_test_`));
    const params = lastCheckout();
    expect(params.mode).toBe("subscription");
    expect(params.line_items[0]).toEqual({ price: PRICE_STARTER, quantity: "1" });
    expect(params.success_url).toBe(`${server.url}/billing?success=true`);
    expect(params.cancel_url).toBe(`${server.url}/billing?canceled=true`);
    expect(params.client_reference_id).toBe(who.teamId);
    expect(params.subscription_data.metadata).toEqual({ team_id: who.teamId, tier: "starter" });
    const sub = await server.ctx.db.selectFrom("subscriptions").select(["stripe_customer_id", "tier"]).where("team_id", "=", who.teamId).executeTakeFirstOrThrow();
    expect(params.customer).toBe(sub.stripe_customer_id);
    // The plan changes only when Stripe's webhook says so.
    expect(sub.tier).toBe("free");
  });

  it("resolves a price configured by lookup key", async () => {
    const who = await signUpAndSignIn(server);
    expect((await call(server, "create-checkout", { tier: "professional" }, who)).status).toBe(200);
    expect(lastCheckout().line_items[0]!.price).toBe(PRICE_PROFESSIONAL);
  });

  it("refuses an unknown or free tier without calling Stripe", async () => {
    const who = await signUpAndSignIn(server);
    const before = fake.requests.length;
    for (const tier of ["free", "platinum", undefined]) {
      const res = await call(server, "create-checkout", { tier }, who);
      expect(res.status).toBe(400);
      expect((await res.json()).error).toBe("Please choose one of the paid plans");
    }
    expect(fake.requests.length).toBe(before);
  });

  it("sends an account that already pays to the Billing Portal instead of a second subscription", async () => {
    const who = await signUpAndSignIn(server);
    await setTeamPlan(server.ctx.db, who.teamId, { tier: "starter", status: "active", stripeCustomerId: `cus_paying_${who.user.id.slice(0, 6)}`, stripeSubscriptionId: `sub_${who.user.id}` });
    const res = await call(server, "create-checkout", { tier: "business" }, who);
    expect((await res.json()).url).toMatch(new RegExp(`^${fake.url}/portal/`));
  });

  it("customer-portal answers a Billing Portal url returning to /billing", async () => {
    const who = await signUpAndSignIn(server);
    const res = await call(server, "customer-portal", {}, who);
    expect(res.status).toBe(200);
    expect((await res.json()).url).toMatch(new RegExp(`^${fake.url}/portal/`));
    expect(fake.requestsTo("/v1/billing_portal/sessions").at(-1)!.params.return_url).toBe(`${server.url}/billing`);
  });

  it("purchase-storage charges GB × the tier's rate in a one-time Checkout", async () => {
    const who = await signUpAndSignIn(server);
    expect((await call(server, "purchase-storage", { storage_gb: 10 }, who)).status).toBe(200);
    let params = lastCheckout();
    expect(params.mode).toBe("payment");
    expect(params.line_items[0]!.quantity).toBe("10");
    expect(params.line_items[0]!.price_data!.unit_amount).toBe("25");
    expect(params.line_items[0]!.price_data!.currency).toBe("gbp");
    expect(params.metadata).toEqual({ kind: "storage_addon", team_id: who.teamId, storage_gb: "10", tier: "free" });
    expect(params.success_url).toBe(`${server.url}/billing?storage_success=true`);
    expect(params.cancel_url).toBe(`${server.url}/billing?storage_canceled=true`);

    await setTeamPlan(server.ctx.db, who.teamId, { tier: "professional" });
    expect((await call(server, "purchase-storage", { storage_gb: "1000" }, who)).status).toBe(200);
    params = lastCheckout();
    expect(params.line_items[0]!.quantity).toBe("1000");
    expect(params.line_items[0]!.price_data!.unit_amount).toBe("10");
  });

  it("refuses amounts outside 1-1000 GB with the spec's message, without calling Stripe", async () => {
    const who = await signUpAndSignIn(server);
    const before = fake.requests.length;
    for (const storage_gb of [0, -5, 1001, 2.5, "abc", "", null]) {
      const res = await call(server, "purchase-storage", { storage_gb }, who);
      expect(res.status).toBe(400);
      expect((await res.json()).error).toBe("Please enter a valid storage amount.");
    }
    expect(fake.requests.length).toBe(before);
  });

  it("passes Stripe's refusal message on", async () => {
    const who = await signUpAndSignIn(server);
    fake.failNextCheckout = "Amount must be at least £0.30 gbp";
    const res = await call(server, "purchase-storage", { storage_gb: 1 }, who);
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe("Amount must be at least £0.30 gbp");
  });

  it("check-subscription answers the subscription state", async () => {
    const who = await signUpAndSignIn(server);
    const res = await call(server, "check-subscription", {}, who);
    expect(await res.json()).toEqual({ subscribed: false, subscription_tier: "free", subscription_end: null, storage_quota_gb: 5 });
  });

  it("asks a visitor to sign in, with the spec's messages", async () => {
    const checkout = await call(server, "create-checkout", { tier: "starter" });
    expect(checkout.status).toBe(401);
    expect((await checkout.json()).error).toBe("Please sign in to subscribe");
    const storage = await call(server, "purchase-storage", { storage_gb: 10 });
    expect((await storage.json()).error).toBe("Please sign in to subscribe");
    const portal = await call(server, "customer-portal", {});
    expect((await portal.json()).error).toBe("Please sign in to manage subscription");
  });

  it("refuses a cross-site POST riding on the session cookie", async () => {
    const who = await signUpAndSignIn(server);
    const before = fake.requests.length;
    const res = await call(server, "create-checkout", { tier: "starter" }, who, { Origin: "https://evil.example" });
    expect(res.status).toBe(403);
    expect(fake.requests.length).toBe(before);
  });

  it("a return URL with success=true changes no plan", async () => {
    const who = await signUpAndSignIn(server);
    const page = await server.request("/billing?success=true", { headers: { Cookie: who.cookie } });
    expect(page.status).toBe(200);
    const state = await (await call(server, "check-subscription", {}, who)).json();
    expect(state.subscription_tier).toBe("free");
  });
});

describe("downgrades and lapses", () => {
  it("refuses new uploads above the lowered quota, deletes nothing, and shows the overage", async () => {
    const who = await signUpAndSignIn(server);
    await setTeamPlan(server.ctx.db, who.teamId, { tier: "starter" });
    expect(await reserveQuota(server.ctx.db, who.teamId, 20 * GB)).toBe(true);
    await setTeamPlan(server.ctx.db, who.teamId, { tier: "free", status: "canceled" });
    expect(await reserveQuota(server.ctx.db, who.teamId, 1)).toBe(false);
    const usage = await server.ctx.db.selectFrom("account_usage").select("used_bytes").where("team_id", "=", who.teamId).executeTakeFirstOrThrow();
    expect(Number(usage.used_bytes)).toBe(20 * GB);
    const html = (await (await server.request("/billing", { headers: { Cookie: who.cookie } })).text()).replaceAll("<!-- -->", "");
    expect(html).toContain("Storage over quota: new uploads are paused");
    expect(html).toContain("free up 15 GB");
  });
});

describe("billing endpoints without Stripe", () => {
  it("says payments are not enabled, while check-subscription still works", async () => {
    const who = await signUpAndSignIn(plain);
    const res = await call(plain, "create-checkout", { tier: "starter" }, who);
    expect(res.status).toBe(503);
    expect((await res.json()).error).toMatch(/^Payments are not enabled on this instance/);
    const state = await (await call(plain, "check-subscription", {}, who)).json();
    expect(state).toEqual({ subscribed: false, subscription_tier: "free", subscription_end: null, storage_quota_gb: 5 });
    const webhook = await plain.request("/api/stripe/webhook", { method: "POST", body: "{}" });
    expect(webhook.status).toBe(404);
  });
});
