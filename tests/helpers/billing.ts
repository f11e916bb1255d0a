import { Readable } from "node:stream";
import type { AppContext } from "../../app/services/app-context.server.ts";
import { createServer } from "../../app/services/servers/servers.server.ts";
import { FakeStripe, WEBHOOK_SECRET } from "./fake-stripe.ts";
import type { TestServer } from "./server.ts";
import type { ServerId, TeamId } from "../../app/lib/ids.ts";

export const PRICE_STARTER = "price_starter_monthly";
export const PRICE_BUSINESS = "price_business_monthly";
export const PRICE_PROFESSIONAL = "price_professional_monthly";
export const PROFESSIONAL_LOOKUP_KEY = "stash_professional_monthly";

/** A fake Stripe with the three monthly prices (the professional one configured by lookup key). */
export async function startFakeStripe(): Promise<FakeStripe> {
  const fake = await new FakeStripe().start();
  fake.addPrice(PRICE_STARTER);
  fake.addPrice(PRICE_BUSINESS);
  fake.addPrice(PRICE_PROFESSIONAL, PROFESSIONAL_LOOKUP_KEY);
  return fake;
}

export function stripeEnv(fake: FakeStripe): Record<string, string> {
  return {
    STRIPE_SECRET_KEY: "sk_test_stash",
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_PRICE_STARTER: PRICE_STARTER,
    STRIPE_PRICE_PROFESSIONAL: PROFESSIONAL_LOOKUP_KEY,
    STRIPE_PRICE_BUSINESS: PRICE_BUSINESS,
    STRIPE_API_BASE: fake.url,
  };
}

export function deliver(server: TestServer, event: { body: string; signature: string }): Promise<Response> {
  return server.request("/api/stripe/webhook", {
    method: "POST",
    headers: { "Content-Type": "application/json", "Stripe-Signature": event.signature },
    body: event.body,
  });
}

/** A file row with its usage counted, as an upload leaves it (blob written under its key). */
export async function seedFile(
  ctx: AppContext,
  input: { teamId: TeamId; serverId: ServerId; category?: string; sizeBytes?: number; createdAt?: Date; expiresAt?: Date | null; withBlob?: boolean },
) {
  const size = input.sizeBytes ?? 1000;
  const name = `f${Math.random().toString(36).slice(2)}.png`;
  const storageKey = `${input.serverId}/${name}`;
  if (input.withBlob ?? true) await ctx.blobs.put(storageKey, Readable.from([Buffer.alloc(size, 1)]));
  const file = await ctx.db
    .insertInto("files")
    .values({
      server_id: input.serverId,
      team_id: input.teamId,
      storage_key: storageKey,
      filename: name,
      original_filename: name,
      category: input.category ?? "screenshots",
      mime_type: "image/png",
      size_bytes: size,
      sha256: "0".repeat(64),
      is_public: true,
      metadata: {},
      created_at: input.createdAt ?? new Date(),
      expires_at: input.expiresAt ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await ctx.db.updateTable("account_usage").set((eb) => ({ used_bytes: eb("used_bytes", "+", size) })).where("team_id", "=", input.teamId).execute();
  await ctx.db.updateTable("servers").set((eb) => ({ storage_used_bytes: eb("storage_used_bytes", "+", size) })).where("id", "=", input.serverId).execute();
  return file;
}

export async function seedServer(ctx: AppContext, teamId: TeamId, name = "Test RP") {
  return createServer(ctx.db, { teamId, name });
}
