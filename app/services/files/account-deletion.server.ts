import type { AppContext } from "~/services/app-context.server";
import type { Billing } from "~/services/billing/stripe-client.server";
import { deleteServerWithFiles } from "~/services/files/delete-files.server";
import { DomainError } from "~/services/platform/domain-error.server";
import { MESSAGES } from "~/lib/auth-validation";
import { verifyPassword } from "~/services/accounts/passwords.server";
import type { TeamId, UserId } from "~/lib/ids";

export interface DeletedAccount {
  servers: number;
  files: number;
  subscriptionCancelled: boolean;
}

/** Cancels a team's live Stripe subscription before anything is deleted; a refusal by Stripe stops the deletion. */
async function cancelTeamSubscription(ctx: Pick<AppContext, "db" | "logger">, billing: Billing | null, teamId: TeamId): Promise<boolean> {
  const subscription = await ctx.db.selectFrom("subscriptions").select(["stripe_subscription_id", "status"]).where("team_id", "=", teamId).executeTakeFirst();
  if (!subscription?.stripe_subscription_id || subscription.status === "canceled") return false;
  if (!billing) throw new DomainError("billing_not_configured", "Payments are not configured, so the subscription cannot be cancelled. Contact support.");
  try {
    await billing.stripe.subscriptions.cancel(subscription.stripe_subscription_id);
    return true;
  } catch (error) {
    // Already gone at Stripe: nothing left to cancel.
    if ((error as { code?: string }).code === "resource_missing") return false;
    ctx.logger.error({ err: error }, "could not cancel the subscription of an account being deleted");
    throw new DomainError("payment_provider_error", "Your subscription could not be cancelled, so nothing was deleted. Try again in a moment.");
  }
}

/**
 * Deletes an account for good, once its current password (if it has one) is proven, with the
 * teams it owns: refused while one of them has other members (ownership goes first); the teams'
 * Stripe subscriptions are cancelled first, then every server with its files' rows and blobs, then
 * the user row, whose teams, keys, sessions, tokens and plan rows cascade. Memberships of other
 * people's teams simply end.
 */
export async function deleteAccount(
  ctx: Pick<AppContext, "db" | "blobs" | "logger">,
  billing: Billing | null,
  { userId, currentPassword }: { userId: UserId; currentPassword: string },
): Promise<DeletedAccount> {
  const user = await ctx.db.selectFrom("users").select("password_hash").where("id", "=", userId).executeTakeFirstOrThrow();
  if (user.password_hash && !(await verifyPassword(user.password_hash, currentPassword))) {
    throw new DomainError("invalid_credentials", MESSAGES.currentPasswordWrong);
  }
  const teams = await ctx.db
    .selectFrom("teams")
    .select((eb) => [
      "teams.id",
      "teams.name",
      eb.selectFrom("team_members").select(eb.fn.countAll<number>().as("n")).whereRef("team_members.team_id", "=", "teams.id").as("members"),
    ])
    .where("owner_user_id", "=", userId)
    .execute();
  const shared = teams.find((team) => Number(team.members) > 1);
  if (shared) throw new DomainError("permission_denied", `You own the team ${shared.name}, which has other members. Transfer its ownership first.`);
  let subscriptionCancelled = false;
  for (const team of teams) subscriptionCancelled = (await cancelTeamSubscription(ctx, billing, team.id)) || subscriptionCancelled;
  let servers = 0;
  let files = 0;
  for (const team of teams) {
    const rows = await ctx.db.selectFrom("servers").select("id").where("team_id", "=", team.id).execute();
    servers += rows.length;
    for (const server of rows) {
      const deleted = await deleteServerWithFiles(ctx.db, ctx.blobs, server.id, {
        ownerId: team.id,
        onBlobError: (key, error) => ctx.logger.warn({ err: error, key }, "blob of a deleted account left for the orphan sweep"),
      });
      files += deleted?.filesDeleted ?? 0;
    }
  }
  await ctx.db.deleteFrom("users").where("id", "=", userId).execute();
  return { servers, files, subscriptionCancelled };
}
