import { BILLING_MESSAGES } from "~/lib/billing-messages";
import type { AppLoadContext } from "react-router";
import { apiError, methodNotAllowed } from "~/http/api-response.server";
import { DomainError } from "~/services/platform/domain-error.server";
import { createCheckout, openCustomerPortal, purchaseStorage } from "~/services/billing/checkout.server";
import { withSession } from "~/http/session-api.server";
import { getBilling } from "~/services/billing/stripe-client.server";
import { checkSubscription } from "~/services/billing/subscriptions.server";
import type { Route } from "./+types/billing";
import type { TeamId } from "~/lib/ids";

const ACTIONS = ["check-subscription", "create-checkout", "customer-portal", "purchase-storage"] as const;
type BillingAction = (typeof ACTIONS)[number];

const noStore = { "Cache-Control": "no-store" };

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
  if (!ACTIONS.includes(action)) return apiError("not_found", "Not found");
  if (request.method === "GET" && action !== "check-subscription") return methodNotAllowed("POST", "Use POST");
  const signIn = action === "customer-portal" ? BILLING_MESSAGES.signInToManage : BILLING_MESSAGES.signInToSubscribe;
  // Reading the plan is for everyone in the team; changing it needs "manage billing".
  return withSession(request, context, async ({ user, team }) => {
    if (action === "check-subscription") {
      return Response.json(await checkSubscription(context.db, team.id), { headers: noStore });
    }
    const account = { teamId: team.id, email: user.email, name: team.name };
    const billing = getBilling(context.config);
    if (!billing) throw new DomainError("payments_disabled", BILLING_MESSAGES.paymentsDisabled);
    const body = await readBody(request);
    const appUrl = context.config.appUrl;
    try {
      const result =
        action === "create-checkout"
          ? await createCheckout(context.db, billing, { account, tier: body.tier, appUrl })
          : action === "customer-portal"
            ? await openCustomerPortal(context.db, billing, { account, appUrl })
            : await purchaseStorage(context.db, billing, { account, storageGb: body.storage_gb, appUrl });
      return Response.json(result, { headers: noStore });
    } catch (error) {
      throw stripeRefusal(context, error, { action, teamId: team.id });
    }
  }, { unauthenticatedMessage: signIn, permission: action === "check-subscription" ? undefined : "manage_billing" });
}

/** A Stripe failure as the user should read it: Stripe's own words for a refused request (an amount below its minimum, say). */
function stripeRefusal(context: AppLoadContext, error: unknown, facts: { action: string; teamId: TeamId }): unknown {
  if (error instanceof DomainError) return error;
  context.logger.error({ err: error, ...facts }, "stripe request failed");
  const stripeError = error as { type?: string; message?: string };
  if (stripeError.type === "StripeInvalidRequestError" && stripeError.message) return new DomainError("invalid_request", stripeError.message);
  return new DomainError("payment_provider_error", "The payment provider could not be reached. Please try again.");
}

export const loader = handle;
export const action = handle;
