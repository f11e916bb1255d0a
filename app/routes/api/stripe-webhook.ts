import { isDomainError } from "~/services/platform/domain-error.server";
import { handleStripeEvent, verifyWebhook } from "~/services/billing/stripe-events.server";
import { getBilling } from "~/services/billing/stripe-client.server";
import type { Route } from "./+types/stripe-webhook";

export function loader() {
  return Response.json({ error: "Use POST" }, { status: 405, headers: { Allow: "POST" } });
}

/**
 * Stripe's webhook. The signature covers the exact bytes sent, so the body is read raw and
 * never parsed before verification. A processing failure answers 500 and records nothing, so
 * Stripe delivers the event again.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const billing = getBilling(context.config);
  if (!billing) return Response.json({ error: "Payments are not enabled on this instance" }, { status: 404 });
  const raw = Buffer.from(await request.arrayBuffer());
  let event;
  try {
    event = verifyWebhook(billing, raw, request.headers.get("stripe-signature"));
  } catch (error) {
    if (!isDomainError(error, "invalid_signature")) throw error;
    context.logger.warn({ requestId: context.requestId, reason: error.message }, "stripe webhook refused");
    return Response.json({ error: `Webhook signature verification failed: ${error.message}` }, { status: 400 });
  }
  try {
    const outcome = await handleStripeEvent(context.db, billing, context.logger, event);
    return Response.json({ received: true, duplicate: outcome === "duplicate" });
  } catch (error) {
    context.logger.error({ err: error, event: event.id, type: event.type }, "stripe webhook processing failed");
    return Response.json({ error: "Processing failed; Stripe will retry" }, { status: 500 });
  }
}
