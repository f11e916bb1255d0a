import { Form, type AppLoadContext } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { formatDate } from "~/lib/format";
import { pageTitle } from "~/lib/site";
import { getDiscordIdentity, unlinkDiscord } from "~/services/accounts/discord-accounts.server";
import { isDomainError } from "~/services/platform/domain-error.server";
import { requireAuthenticated } from "~/http/guards.server";
import { actionFail, actionOk } from "~/http/action-results.server";
import { ERROR_STATUS } from "~/http/api-response.server";
import { isValidEmail, MESSAGES, validateDisplayName, validateNewPassword } from "~/lib/auth-validation";
import { deleteAccount } from "~/services/files/account-deletion.server";
import { startEmailChange } from "~/services/accounts/email-change.server";
import { clearSessionCookie } from "~/services/accounts/sessions.server";
import { getBilling } from "~/services/billing/stripe-client.server";
import { sendAccountMailInBackground } from "~/routes/auth/auth-mail.server";
import { DeleteAccountCard, DELETE_ACCOUNT_PHRASE } from "~/components/settings/delete-account-card";
import { EmailCard } from "~/components/settings/email-card";
import { changePassword } from "~/services/accounts/password-accounts.server";
import { listUserSessions, revokeUserSession } from "~/services/accounts/sessions.server";
import { updateDisplayName } from "~/services/accounts/users.server";
import { PasswordCard } from "~/components/settings/password-card";
import { ProfileCard } from "~/components/settings/profile-card";
import { SessionsCard } from "~/components/settings/sessions-card";
import { redirectWithToast } from "~/http/toast.server";
import type { Route } from "./+types/settings";
import type { UserId } from "~/lib/ids";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, sessionId } = await requireAuthenticated(request, context);
  const [discord, sessions] = await Promise.all([getDiscordIdentity(context.db, user.id), listUserSessions(context.db, user.id, sessionId)]);
  return {
    appName: context.config.APP_NAME,
    discordEnabled: context.config.discordEnabled,
    user: {
      id: user.id,
      email: user.email,
      displayName: user.displayName,
      hasPassword: user.hasPassword,
      createdAt: user.createdAt.toISOString(),
      lastSignInAt: user.lastSignInAt?.toISOString() ?? null,
    },
    discord: discord ? { username: discord.username } : null,
    sessions: sessions.map((session) => ({
      ...session,
      signedInAt: session.signedInAt.toISOString(),
      lastActiveAt: session.lastActiveAt.toISOString(),
    })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user, sessionId } = await requireAuthenticated(request, context);
  const form = await request.formData();
  switch (form.get("intent")) {
    case "updateProfile": {
      const name = validateDisplayName(form.get("displayName"));
      if (!name.ok) return actionFail("Error updating profile", name.error, 400);
      await updateDisplayName(context.db, user.id, name.value);
      return actionOk({ type: "success", title: "Profile updated", description: `You now appear as ${name.value}.` });
    }
    case "changePassword":
      return changePasswordAction(context, form, { userId: user.id, sessionId, hasPassword: user.hasPassword });
    case "changeEmail":
      return changeEmailAction(context, form, user.id, user.hasPassword);
    case "deleteAccount":
      return deleteAccountAction(context, form, user.id);
    case "revokeSession": {
      const revoked = await revokeUserSession(context.db, user.id, String(form.get("sessionId") ?? ""));
      if (!revoked) return actionFail("Error signing out device", "That device is already signed out.", 404);
      return actionOk({ type: "success", title: "Device signed out" });
    }
    case "unlinkDiscord":
      try {
        await unlinkDiscord(context.db, user.id);
      } catch (error) {
        if (!isDomainError(error, "discord_account_conflict", "not_found")) throw error;
        return redirectWithToast("/settings", { type: "error", title: "Failed to unlink Discord", description: error.message });
      }
      return redirectWithToast("/settings", { type: "success", title: "Discord unlinked" });
    default:
      return actionFail("Error", "Unknown action", 400);
  }
}

async function changePasswordAction(context: AppLoadContext, form: FormData, who: { userId: UserId; sessionId: string; hasPassword: boolean }) {
  const title = "Error updating password";
  if (!who.hasPassword) return actionFail(title, "This account signs in with Discord and has no password to change.", 400);
  const [currentPassword, newPassword, confirm] = ["currentPassword", "newPassword", "confirmPassword"].map((name) => String(form.get(name) ?? ""));
  if (!currentPassword || !newPassword || !confirm) return actionFail(title, MESSAGES.fillAll, 400);
  const problem = validateNewPassword(newPassword);
  if (problem) return actionFail(title, problem, 400);
  if (newPassword !== confirm) return actionFail(title, MESSAGES.passwordsDiffer, 400);
  try {
    await changePassword(context.db, { userId: who.userId, currentPassword, newPassword, keepSessionId: who.sessionId });
  } catch (error) {
    if (!isDomainError(error, "invalid_credentials")) throw error;
    return actionFail(title, error.message, ERROR_STATUS[error.code]);
  }
  return actionOk({ type: "success", title: "Password updated", description: "Every other device has been signed out." });
}

async function changeEmailAction(context: AppLoadContext, form: FormData, userId: UserId, hasPassword: boolean) {
  const title = "Error changing email";
  const newEmail = String(form.get("newEmail") ?? "").trim();
  const currentPassword = String(form.get("currentPassword") ?? "");
  if (!newEmail || (hasPassword && !currentPassword)) return actionFail(title, MESSAGES.fillAll, 400);
  if (!isValidEmail(newEmail)) return actionFail(title, MESSAGES.invalidEmail, 400);
  try {
    const change = await startEmailChange(context.db, { userId, newEmail, currentPassword });
    sendAccountMailInBackground(context, "change", change.newEmail, change.token);
    return actionOk({ type: "success", title: "Check your new inbox", description: `Follow the link sent to ${change.newEmail} to finish.` }, { pendingEmail: change.newEmail });
  } catch (error) {
    if (!isDomainError(error, "invalid_credentials", "email_taken", "invalid_request")) throw error;
    return actionFail(title, error.message, ERROR_STATUS[error.code]);
  }
}

async function deleteAccountAction(context: AppLoadContext, form: FormData, userId: UserId) {
  const title = "Error deleting account";
  if (String(form.get("confirmPhrase") ?? "").trim().toLowerCase() !== DELETE_ACCOUNT_PHRASE) {
    return actionFail(title, `Type "${DELETE_ACCOUNT_PHRASE}" to confirm.`, 400);
  }
  try {
    await deleteAccount(context, getBilling(context.config), { userId, currentPassword: String(form.get("currentPassword") ?? "") });
  } catch (error) {
    if (!isDomainError(error, "invalid_credentials", "payment_provider_error", "billing_not_configured")) throw error;
    return actionFail(title, error.message, ERROR_STATUS[error.code]);
  }
  return redirectWithToast(
    "/",
    { type: "success", title: "Account deleted", description: "Your account, servers and files have been removed." },
    new Headers({ "Set-Cookie": clearSessionCookie(context.config) }),
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle("Settings", loaderData?.appName) }];
}

export default function Settings({ loaderData }: Route.ComponentProps) {
  const { user, discord, discordEnabled, sessions } = loaderData;
  return (
    <section className="max-w-3xl space-y-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">Settings</h1>
        <p className="text-muted-foreground">Your account, connected sign-in methods and security.</p>
      </div>

      <ProfileCard user={user} />

      <Card>
        <CardHeader>
          <CardTitle>Connected Accounts</CardTitle>
          <CardDescription>Sign in with Discord as well as with your email and password.</CardDescription>
        </CardHeader>
        <CardContent className="space-y-3">
          <div className="flex flex-wrap items-center justify-between gap-3 rounded-md border p-3">
            <div>
              <p className="font-medium">Discord</p>
              <p className="text-sm text-muted-foreground">
                {discord ? `Linked as ${discord.username ?? "a Discord user"}` : discordEnabled ? "Not linked" : "Discord sign-in is not available on this server."}
              </p>
            </div>
            {discord ? (
              <Form method="post">
                <input type="hidden" name="intent" value="unlinkDiscord" />
                <Button type="submit" variant="outline">
                  Unlink Discord
                </Button>
              </Form>
            ) : discordEnabled ? (
              <form method="post" action="/auth/discord">
                <input type="hidden" name="intent" value="link" />
                <input type="hidden" name="redirectTo" value="/settings" />
                <Button type="submit">Link Discord</Button>
              </form>
            ) : null}
          </div>
          {user.hasPassword ? (
            <p className="text-sm text-muted-foreground">Email and password sign-in still works whether or not Discord is linked.</p>
          ) : null}
        </CardContent>
      </Card>

      <EmailCard email={user.email} hasPassword={user.hasPassword} />
      {user.hasPassword ? <PasswordCard /> : null}
      <SessionsCard sessions={sessions} />

      <Card>
        <CardHeader>
          <CardTitle>Account Security</CardTitle>
        </CardHeader>
        <CardContent>
          <dl className="grid gap-4 text-sm sm:grid-cols-2">
            <div>
              <dt className="text-muted-foreground">Account type</dt>
              <dd className="flex flex-wrap items-center gap-2 font-medium">
                {user.hasPassword ? "Email Account" : "OAuth Account"}
                {discord ? <Badge variant="info">Discord Linked</Badge> : null}
              </dd>
            </div>
            <div>
              <dt className="text-muted-foreground">Created</dt>
              <dd className="font-medium">{formatDate(user.createdAt)}</dd>
            </div>
            <div>
              <dt className="text-muted-foreground">Last sign-in</dt>
              <dd className="font-medium">{user.lastSignInAt ? formatDate(user.lastSignInAt) : "Unknown"}</dd>
            </div>
          </dl>
        </CardContent>
      </Card>
      <DeleteAccountCard hasPassword={user.hasPassword} />
    </section>
  );
}
