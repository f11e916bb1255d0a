import { BILLING_MESSAGES } from "~/lib/billing-messages";
import { BillingError, createCheckout, openCustomerPortal, purchaseStorage } from "~/services/billing/checkout.server";
import { CROSS_SITE_MESSAGE, isSameOriginRequest } from "~/http/origin-check.server";
import { authenticate } from "~/http/guards.server";
import { getBilling } from "~/services/billing/stripe-client.server";
import { checkSubscription } from "~/services/billing/subscriptions.server";
import type { Route } from "./+types/billing";

const ACTIONS = ["check-subscription", "create-checkout", "customer-portal", "purchase-storage"] as const;
type BillingAction = (typeof ACTIONS)[number];

const noStore = { "Cache-Control": "no-store" };
const fail = (status: number, error: string) => Response.json({ error }, { status, headers: noStore });

async function readBody(request: Request): Promise<Record<string, unknown>> {
  const type = request.headers.get("Content-Type") ?? "";
  if (type.includes("application/json")) {
    const body: unknown = await request.json().catch(() => null);
    return body && typeof body === "object" ? (body as Record<string, unknown>) : {};
  }
  if (type.includes("form")) return Object.fromEntries(await request.formData());
  return {};
}

async function handle({ request, context, params }: Route.ActionArgs | Route.LoaderArgs) {
  const action = params.action as BillingAction;
  if (!ACTIONS.includes(action)) return fail(404, "Not found");
  if (request.method === "GET" && action !== "check-subscription") return fail(405, "Use POST");
  // /api is open to other origins for the script API; these endpoints ride on the session cookie.
  if (!isSameOriginRequest(request, context.config)) return fail(403, CROSS_SITE_MESSAGE);
  const auth = await authenticate(request, context);
  if (!auth) return fail(401, action === "customer-portal" ? BILLING_MESSAGES.signInToManage : BILLING_MESSAGES.signInToSubscribe);
  const user = { id: auth.user.id, email: auth.user.email, displayName: auth.user.displayName };

  if (action === "check-subscription") {
    return Response.json(await checkSubscription(context.db, user.id), { headers: noStore });
  }
  const billing = getBilling(context.config);
  if (!billing) return fail(503, BILLING_MESSAGES.paymentsDisabled);
  const body = await readBody(request);
  const appUrl = context.config.appUrl;
  try {
    const result =
      action === "create-checkout"
        ? await createCheckout(context.db, billing, { user, tier: body.tier, appUrl })
        : action === "customer-portal"
          ? await openCustomerPortal(context.db, billing, { user, appUrl })
          : await purchaseStorage(context.db, billing, { user, storageGb: body.storage_gb, appUrl });
    return Response.json(result, { headers: noStore });
  } catch (error) {
    if (error instanceof BillingError) return fail(error.status, error.message);
    const stripeError = error as { type?: string; message?: string; statusCode?: number };
    context.logger.error({ err: error, action, userId: user.id }, "stripe request failed");
    // Stripe's own message for a refused request (an amount below its minimum, say) helps the user.
    if (stripeError.type === "StripeInvalidRequestError" && stripeError.message) return fail(400, stripeError.message);
    return fail(502, "The payment provider could not be reached. Please try again.");
  }
}

export const loader = handle;
export const action = handle;
