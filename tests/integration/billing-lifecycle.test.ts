import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GB } from "../../app/lib/plans.ts";
import { outboxDir } from "../../app/services/platform/mail.server.ts";
import { mailExpiryNotices } from "../../app/services/maintenance/background-jobs.server.ts";
import { sweepExpiredFiles } from "../../app/services/retention/sweep.server.ts";
import { seedAccount, type SeededAccount } from "../helpers/api-seed.ts";
import { createSessionCookie } from "../helpers/auth.ts";
import { deliver, PRICE_STARTER, startFakeStripe, stripeEnv } from "../helpers/billing.ts";
import { signedEvent, type FakeStripe } from "../helpers/fake-stripe.ts";
import { stashTest } from "../helpers/fixtures.ts";
import type { TestServer } from "../helpers/server.ts";
import { form, pdf } from "../helpers/upload-fixtures.ts";
import type { FileId } from "../../app/lib/ids.ts";

const DAY = 86_400_000;
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

async function upload(who: SeededAccount, name = "evidence.pdf") {
  const res = await server.request("/api/upload", { method: "POST", body: form([{ field: "file", data: pdf(2000), filename: name }]), headers: { "x-api-key": who.key } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> & { id?: FileId; code?: string; error?: string } };
}

const fileRow = (id: FileId) => server.ctx.db.selectFrom("files").select(["id", "expires_at"]).where("id", "=", id).executeTakeFirst();

async function subscribe(who: SeededAccount, status = "active") {
  const customer = `cus_${who.userId.slice(0, 8)}`;
  const sub = fake.setSubscription({ id: `sub_${who.userId}`, customer, priceId: PRICE_STARTER, status, metadata: { team_id: who.teamId } });
  expect((await deliver(server, signedEvent(status === "active" ? "customer.subscription.updated" : "customer.subscription.deleted", fake.subscriptionObject(sub)))).status).toBe(200);
}

describe("plans and uploads", () => {
  it("free-plan uploads expire after 30 days; subscribing clears that and later uploads keep forever", async () => {
    const who = await seedAccount(server.ctx);
    const before = Date.now();
    const first = await upload(who);
    expect(first.status).toBe(201);
    const expiresAt = (await fileRow(first.body.id!))!.expires_at!.getTime();
    expect(expiresAt).toBeGreaterThanOrEqual(before + 30 * DAY - 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 30 * DAY + 1000);

    await subscribe(who);
    expect((await fileRow(first.body.id!))!.expires_at).toBeNull();
    const second = await upload(who, "later.pdf");
    expect((await fileRow(second.body.id!))!.expires_at).toBeNull();
  });

  it("after a lapse above the free quota, uploads are refused with a clear error and nothing is deleted", async () => {
    const who = await seedAccount(server.ctx);
    await subscribe(who);
    const kept = await upload(who, "kept.pdf");
    expect(kept.status).toBe(201);
    await server.ctx.db.updateTable("account_usage").set((eb) => ({ used_bytes: eb("used_bytes", "+", 20 * GB) })).where("team_id", "=", who.teamId).execute();

    await subscribe(who, "canceled");
    const refused = await upload(who, "new.pdf");
    expect(refused.status).toBe(413);
    expect(refused.body.code).toBe("quota_exceeded");
    expect(String(refused.body.error)).toMatch(/quota/i);

    // Files uploaded while paying have no expiry, so even a sweep far in the future keeps them.
    await sweepExpiredFiles(server.ctx, { now: new Date(Date.now() + 365 * DAY) });
    expect(await fileRow(kept.body.id!)).toBeTruthy();
    const download = await server.request(`/api/download/${kept.body.id}`, { headers: { "x-api-key": who.key } });
    expect(download.status).toBe(200);
  });
});

describe("expiry e-mails", () => {
  it("writes one notice per owner to the outbox when no SMTP relay is configured", async () => {
    const who = await seedAccount(server.ctx);
    const soon = await upload(who, "soon.pdf");
    await server.ctx.db.updateTable("files").set({ expires_at: new Date(Date.now() + DAY) }).where("id", "=", soon.body.id!).execute();
    const dir = outboxDir(server.ctx.config);
    const before = fs.existsSync(dir) ? fs.readdirSync(dir).length : 0;
    expect(await mailExpiryNotices(server.ctx, new Date())).toBeGreaterThanOrEqual(1);
    const mails = fs.readdirSync(dir).filter((f) => f.endsWith(".eml")).map((f) => fs.readFileSync(path.join(dir, f), "utf8"));
    expect(mails.length).toBeGreaterThan(before);
    expect(mails.some((m) => m.includes("will be deleted soon") && m.includes("soon.pdf"))).toBe(true);
    expect(await mailExpiryNotices(server.ctx, new Date())).toBe(0);
  });

  it("flags files expiring within 3 days in the gallery", async () => {
    const who = await seedAccount(server.ctx);
    const soon = await upload(who, "flagged.pdf");
    const later = await upload(who, "fine.pdf");
    await server.ctx.db.updateTable("files").set({ expires_at: new Date(Date.now() + 2 * DAY - 60_000) }).where("id", "=", soon.body.id!).execute();
    const session = await createSessionCookie(server.ctx, who.userId);
    const html = (await (await server.request("/gallery", { headers: { Cookie: session.cookie } })).text()).replaceAll("<!-- -->", "");
    expect(html.match(/data-testid="expiring-soon"[^>]*>Expires in 2 days</g)).toHaveLength(1);
    expect(later.status).toBe(201);
  });
});
