import { Form } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { formatDate } from "~/lib/format";
import { pageTitle } from "~/lib/site";
import { getDiscordIdentity, unlinkDiscord } from "~/services/accounts/discord-accounts.server";
import { isDomainError } from "~/services/platform/domain-error.server";
import { requireUser } from "~/http/guards.server";
import { redirectWithToast } from "~/http/toast.server";
import type { Route } from "./+types/settings";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const discord = await getDiscordIdentity(context.db, user.id);
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
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const form = await request.formData();
  if (form.get("intent") !== "unlinkDiscord") {
    return redirectWithToast("/settings", { type: "error", title: "Error", description: "Unknown action" });
  }
  try {
    await unlinkDiscord(context.db, user.id);
  } catch (error) {
    if (!isDomainError(error, "discord_account_conflict", "not_found")) throw error;
    return redirectWithToast("/settings", { type: "error", title: "Failed to unlink Discord", description: error.message });
  }
  return redirectWithToast("/settings", { type: "success", title: "Discord unlinked" });
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle("Settings", loaderData?.appName) }];
}

function ReadOnlyField({ id, label, value, note }: { id: string; label: string; value: string; note?: string }) {
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} value={value} readOnly disabled className="font-normal" />
      {note ? <p className="text-xs text-muted-foreground">{note}</p> : null}
    </div>
  );
}

export default function Settings({ loaderData }: Route.ComponentProps) {
  const { user, discord, discordEnabled } = loaderData;
  return (
    <section className="max-w-3xl space-y-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">Settings</h1>
        <p className="text-muted-foreground">Your account, connected sign-in methods and security.</p>
      </div>

      <Card>
        <CardHeader>
          <CardTitle>Profile</CardTitle>
          <CardDescription>How you appear and sign in.</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          <ReadOnlyField id="settings-email" label="Email" value={user.email ?? "No email address"} note="Email cannot be changed at this time" />
          <ReadOnlyField id="settings-display-name" label="Display Name" value={user.displayName ?? "User"} note="Display name updates coming soon" />
          <ReadOnlyField id="settings-user-id" label="User ID" value={user.id} />
        </CardContent>
      </Card>

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
    </section>
  );
}
