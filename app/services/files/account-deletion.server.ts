import type { AppContext } from "~/services/app-context.server";
import type { Billing } from "~/services/billing/stripe-client.server";
import { deleteServerWithFiles } from "~/services/files/delete-files.server";
import { DomainError } from "~/services/platform/domain-error.server";
import { MESSAGES } from "~/lib/auth-validation";
import { verifyPassword } from "~/services/accounts/passwords.server";

export interface DeletedAccount {
  servers: number;
  files: number;
  subscriptionCancelled: boolean;
}

/**
 * Deletes an account for good, once its current password (if it has one) is proven: its Stripe
 * subscription is cancelled first (if that fails nothing is deleted, so nobody keeps paying for an
 * account that is gone), then every server with its files' rows and blobs, then the user row, whose
 * keys, sessions, tokens and plan rows cascade.
 */
export async function deleteAccount(
  ctx: Pick<AppContext, "db" | "blobs" | "logger">,
  billing: Billing | null,
  { userId, currentPassword }: { userId: string; currentPassword: string },
): Promise<DeletedAccount> {
  const user = await ctx.db.selectFrom("users").select("password_hash").where("id", "=", userId).executeTakeFirstOrThrow();
  if (user.password_hash && !(await verifyPassword(user.password_hash, currentPassword))) {
    throw new DomainError("invalid_credentials", MESSAGES.currentPasswordWrong);
  }
  const subscription = await ctx.db.selectFrom("subscriptions").select(["stripe_subscription_id", "status"]).where("user_id", "=", userId).executeTakeFirst();
  let subscriptionCancelled = false;
  if (subscription?.stripe_subscription_id && subscription.status !== "canceled") {
    if (!billing) throw new DomainError("billing_not_configured", "Payments are not configured, so the subscription cannot be cancelled. Contact support.");
    try {
      await billing.stripe.subscriptions.cancel(subscription.stripe_subscription_id);
      subscriptionCancelled = true;
    } catch (error) {
      const code = (error as { code?: string }).code;
      // Already gone at Stripe: nothing left to cancel.
      if (code !== "resource_missing") {
        ctx.logger.error({ err: error }, "could not cancel the subscription of an account being deleted");
        throw new DomainError("payment_provider_error", "Your subscription could not be cancelled, so nothing was deleted. Try again in a moment.");
      }
    }
  }
  const servers = await ctx.db.selectFrom("servers").select("id").where("user_id", "=", userId).execute();
  let files = 0;
  for (const server of servers) {
    const deleted = await deleteServerWithFiles(ctx.db, ctx.blobs, server.id, {
      ownerId: userId,
      onBlobError: (key, error) => ctx.logger.warn({ err: error, key }, "blob of a deleted account left for the orphan sweep"),
    });
    files += deleted?.filesDeleted ?? 0;
  }
  await ctx.db.deleteFrom("users").where("id", "=", userId).execute();
  return { servers: servers.length, files, subscriptionCancelled };
}
