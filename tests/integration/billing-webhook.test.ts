import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAccountQuota } from "../../app/services/billing/quota.server.ts";
import { checkSubscription } from "../../app/services/billing/subscriptions.server.ts";
import { createTestUser } from "../helpers/auth.ts";
import { deliver, PRICE_BUSINESS, PRICE_PROFESSIONAL, PRICE_STARTER, seedFile, seedServer, startFakeStripe, stripeEnv } from "../helpers/billing.ts";
import { signedEvent, type FakeStripe } from "../helpers/fake-stripe.ts";
import { stashTest } from "../helpers/fixtures.ts";
import type { TestServer } from "../helpers/server.ts";
import { usingPostgres } from "../helpers/test-db.ts";
import type { TeamId } from "../../app/lib/ids.ts";

let fake: FakeStripe;
let server: TestServer;

// The Stripe stand-in starts first; the fixture's server is pointed at it.
const test = stashTest(() => stripeEnv(fake));

beforeAll(async () => {
  fake = await startFakeStripe();
});

test.beforeAll(async ({ server: started }) => {
  server = started;
});

afterAll(async () => {
  await fake?.close();
});

/** A new account's own team, with a Stripe customer of its own. */
async function newTeam() {
  const { teamId } = await createTestUser(server.ctx, { email: `b-${randomUUID()}@example.com` });
  const customer = `cus_${randomUUID().slice(0, 8)}`;
  await server.ctx.db.updateTable("subscriptions").set({ stripe_customer_id: customer }).where("team_id", "=", teamId).execute();
  return { teamId, customer };
}

function checkoutCompleted(sub: { id: string; customer: string }, teamId: TeamId) {
  return signedEvent("checkout.session.completed", {
    id: `cs_${randomUUID()}`,
    object: "checkout.session",
    mode: "subscription",
    customer: sub.customer,
    subscription: sub.id,
    client_reference_id: teamId,
    payment_status: "paid",
    metadata: { team_id: teamId },
  });
}

function storagePurchase(teamId: TeamId, gb: number, id = `cs_${randomUUID()}`) {
  return signedEvent("checkout.session.completed", {
    id,
    object: "checkout.session",
    mode: "payment",
    payment_status: "paid",
    metadata: { kind: "storage_addon", team_id: teamId, storage_gb: String(gb), tier: "free" },
  });
}

async function eventsRecorded(id: string) {
  const rows = await server.ctx.db.selectFrom("stripe_events").select("id").where("id", "=", id).execute();
  return rows.length;
}

describe("webhook signatures", () => {
  it("accepts a correctly signed event and records it", async () => {
    const { teamId } = await newTeam();
    const event = storagePurchase(teamId, 3);
    const res = await deliver(server, event);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true, duplicate: false });
    expect(await eventsRecorded(event.id)).toBe(1);
    expect((await getAccountQuota(server.ctx.db, teamId)).addonGb).toBe(3);
  });

  it("refuses a signature made with another secret, changing nothing", async () => {
    const { teamId } = await newTeam();
    const event = signedEvent("checkout.session.completed", { id: "cs_x", object: "checkout.session", mode: "payment", payment_status: "paid", metadata: { kind: "storage_addon", team_id: teamId, storage_gb: "50" } }, { secret: "whsec_wrong" });
    const res = await deliver(server, event);
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/signature/i);
    expect(await eventsRecorded(event.id)).toBe(0);
    expect((await getAccountQuota(server.ctx.db, teamId)).addonGb).toBe(0);
  });

  it("refuses a stale signature (replayed after the 5-minute tolerance)", async () => {
    const { teamId } = await newTeam();
    const event = signedEvent("checkout.session.completed", { id: "cs_y", object: "checkout.session", mode: "payment", payment_status: "paid", metadata: { kind: "storage_addon", team_id: teamId, storage_gb: "50" } }, { timestamp: Math.floor(Date.now() / 1000) - 600 });
    const res = await deliver(server, event);
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/tolerance/i);
    expect((await getAccountQuota(server.ctx.db, teamId)).addonGb).toBe(0);
  });

  it("refuses a body that was parsed and re-serialised, even with the same content", async () => {
    const { teamId } = await newTeam();
    const event = storagePurchase(teamId, 7);
    const reserialised = JSON.stringify(JSON.parse(event.body), null, 2);
    const res = await deliver(server, { body: reserialised, signature: event.signature });
    expect(res.status).toBe(400);
    expect(await eventsRecorded(event.id)).toBe(0);
    // The original bytes still verify.
    expect((await deliver(server, event)).status).toBe(200);
    expect((await getAccountQuota(server.ctx.db, teamId)).addonGb).toBe(7);
  });

  it("refuses a delivery without a Stripe-Signature header", async () => {
    const res = await server.request("/api/stripe/webhook", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    expect(res.status).toBe(400);
  });
});

describe("exactly-once processing", () => {
  it("processes a redelivered event once", async () => {
    const { teamId } = await newTeam();
    const event = storagePurchase(teamId, 10);
    const first = await deliver(server, event);
    const second = await deliver(server, event);
    expect(await first.json()).toEqual({ received: true, duplicate: false });
    expect(await second.json()).toEqual({ received: true, duplicate: true });
    expect((await getAccountQuota(server.ctx.db, teamId)).addonGb).toBe(10);
  });

  it("a new event for an already granted purchase adds nothing", async () => {
    const { teamId } = await newTeam();
    const sessionId = `cs_${randomUUID()}`;
    await deliver(server, storagePurchase(teamId, 10, sessionId));
    const again = await deliver(server, storagePurchase(teamId, 10, sessionId));
    expect(again.status).toBe(200);
    expect((await getAccountQuota(server.ctx.db, teamId)).addonGb).toBe(10);
  });

  describe.runIf(usingPostgres)("on PostgreSQL", () => {
    it("processes simultaneous deliveries of one event once", async () => {
      const { teamId, customer } = await newTeam();
      const sub = fake.setSubscription({ customer, priceId: PRICE_STARTER, metadata: { team_id: teamId } });
      const event = checkoutCompleted(sub, teamId);
      const answers = await Promise.all(Array.from({ length: 8 }, () => deliver(server, event).then((r) => r.json())));
      expect(answers.filter((a) => a.duplicate === false)).toHaveLength(1);
      expect(answers.filter((a) => a.duplicate === true)).toHaveLength(7);
      expect(await eventsRecorded(event.id)).toBe(1);
      expect((await checkSubscription(server.ctx.db, teamId)).subscription_tier).toBe("starter");
    });
  });
});

describe("subscription events", () => {
  it("a completed subscription checkout moves the account to the plan and its quota", async () => {
    const { teamId, customer } = await newTeam();
    const periodEnd = Math.floor(Date.now() / 1000) + 20 * 86400;
    const sub = fake.setSubscription({ customer, priceId: PRICE_BUSINESS, currentPeriodEnd: periodEnd, metadata: { team_id: teamId } });
    expect((await deliver(server, checkoutCompleted(sub, teamId))).status).toBe(200);
    expect(await checkSubscription(server.ctx.db, teamId)).toEqual({
      subscribed: true,
      subscription_tier: "business",
      subscription_end: new Date(periodEnd * 1000).toISOString(),
      storage_quota_gb: 200,
    });
  });

  it("maps a price configured by lookup key to its tier", async () => {
    const { teamId, customer } = await newTeam();
    const sub = fake.setSubscription({ customer, priceId: PRICE_PROFESSIONAL });
    await deliver(server, signedEvent("customer.subscription.created", fake.subscriptionObject(sub)));
    expect((await checkSubscription(server.ctx.db, teamId)).subscription_tier).toBe("professional");
  });

  it("applies Stripe's current state when events arrive out of order", async () => {
    const { teamId, customer } = await newTeam();
    const sub = fake.setSubscription({ customer, priceId: PRICE_STARTER, metadata: { team_id: teamId } });
    const createdPayload = fake.subscriptionObject(sub);
    // In Stripe the subscription is already cancelled; "deleted" arrives before "created".
    fake.setSubscription({ ...sub, priceId: PRICE_STARTER, status: "canceled" });
    await deliver(server, signedEvent("customer.subscription.deleted", fake.subscriptionObject(fake.subscriptions.get(sub.id)!)));
    await deliver(server, signedEvent("customer.subscription.created", createdPayload));
    const state = await checkSubscription(server.ctx.db, teamId);
    expect(state.subscription_tier).toBe("free");
    expect(state.subscribed).toBe(false);
    expect(state.storage_quota_gb).toBe(5);
  });

  it("a stale 'past_due' update does not undo a recovered subscription", async () => {
    const { teamId, customer } = await newTeam();
    const sub = fake.setSubscription({ customer, priceId: PRICE_BUSINESS, metadata: { team_id: teamId } });
    const stalePayload = { ...fake.subscriptionObject(sub), status: "unpaid" };
    await deliver(server, signedEvent("customer.subscription.updated", stalePayload));
    expect((await checkSubscription(server.ctx.db, teamId)).subscription_tier).toBe("business");
  });

  it("an upgrade changes the quota; a cancellation returns to the free plan without deleting files", async () => {
    const { teamId, customer } = await newTeam();
    const srv = await seedServer(server.ctx, teamId);
    const sub = fake.setSubscription({ customer, priceId: PRICE_STARTER, metadata: { team_id: teamId } });
    await deliver(server, signedEvent("customer.subscription.created", fake.subscriptionObject(sub)));
    expect((await getAccountQuota(server.ctx.db, teamId)).planGb).toBe(25);
    fake.setSubscription({ id: sub.id, customer, priceId: PRICE_BUSINESS });
    await deliver(server, signedEvent("customer.subscription.updated", fake.subscriptionObject(fake.subscriptions.get(sub.id)!)));
    expect((await getAccountQuota(server.ctx.db, teamId)).planGb).toBe(200);
    const file = await seedFile(server.ctx, { teamId, serverId: srv.id, sizeBytes: 4096 });
    fake.setSubscription({ id: sub.id, customer, priceId: PRICE_BUSINESS, status: "canceled" });
    await deliver(server, signedEvent("customer.subscription.deleted", fake.subscriptionObject(fake.subscriptions.get(sub.id)!)));
    const quota = await getAccountQuota(server.ctx.db, teamId);
    expect(quota.planGb).toBe(5);
    expect(quota.usedBytes).toBe(4096);
    expect(await server.ctx.db.selectFrom("files").select("id").where("id", "=", file.id).executeTakeFirst()).toBeTruthy();
  });

  it("an older subscription ending does not take away the plan a newer one pays for", async () => {
    const { teamId, customer } = await newTeam();
    const old = fake.setSubscription({ customer, priceId: PRICE_STARTER, status: "canceled", metadata: { team_id: teamId } });
    const current = fake.setSubscription({ customer, priceId: PRICE_BUSINESS, metadata: { team_id: teamId } });
    await deliver(server, signedEvent("customer.subscription.created", fake.subscriptionObject(current)));
    await deliver(server, signedEvent("customer.subscription.deleted", fake.subscriptionObject(old)));
    expect((await checkSubscription(server.ctx.db, teamId)).subscription_tier).toBe("business");
  });

  it("upgrading to a paid plan clears the free plan's expiry of existing files", async () => {
    const { teamId, customer } = await newTeam();
    const srv = await seedServer(server.ctx, teamId);
    const file = await seedFile(server.ctx, { teamId, serverId: srv.id, expiresAt: new Date(Date.now() + 86400_000) });
    const sub = fake.setSubscription({ customer, priceId: PRICE_STARTER, metadata: { team_id: teamId } });
    await deliver(server, checkoutCompleted(sub, teamId));
    const row = await server.ctx.db.selectFrom("files").select("expires_at").where("id", "=", file.id).executeTakeFirstOrThrow();
    expect(row.expires_at).toBeNull();
  });

  it("answers 500 and records nothing when Stripe cannot be read, so Stripe retries", async () => {
    const { teamId } = await newTeam();
    const event = checkoutCompleted({ id: "sub_missing", customer: "cus_none" }, teamId);
    const res = await deliver(server, event);
    expect(res.status).toBe(500);
    expect(await eventsRecorded(event.id)).toBe(0);
  });
});

describe("storage add-ons", () => {
  it("adds the purchased GB until the end of the current billing cycle", async () => {
    const { teamId, customer } = await newTeam();
    const periodEnd = Math.floor(Date.now() / 1000) + 12 * 86400;
    const sub = fake.setSubscription({ customer, priceId: PRICE_STARTER, currentPeriodEnd: periodEnd, metadata: { team_id: teamId } });
    await deliver(server, checkoutCompleted(sub, teamId));
    await deliver(server, storagePurchase(teamId, 40));
    const addon = await server.ctx.db.selectFrom("storage_addons").selectAll().where("team_id", "=", teamId).executeTakeFirstOrThrow();
    expect(addon.gb).toBe(40);
    expect(addon.expires_at?.toISOString()).toBe(new Date(periodEnd * 1000).toISOString());
    expect((await checkSubscription(server.ctx.db, teamId)).storage_quota_gb).toBe(65);
    const afterCycle = new Date(periodEnd * 1000 + 1000);
    expect((await getAccountQuota(server.ctx.db, teamId, afterCycle)).addonGb).toBe(0);
  });

  it("ignores an unpaid storage checkout", async () => {
    const { teamId } = await newTeam();
    const event = signedEvent("checkout.session.completed", { id: `cs_${randomUUID()}`, object: "checkout.session", mode: "payment", payment_status: "unpaid", metadata: { kind: "storage_addon", team_id: teamId, storage_gb: "10" } });
    expect((await deliver(server, event)).status).toBe(200);
    expect((await getAccountQuota(server.ctx.db, teamId)).addonGb).toBe(0);
  });
});
