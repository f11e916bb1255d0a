import { useFetcher } from "react-router";
import { FormError } from "~/components/auth/auth-fields";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import type { ActionResult } from "~/lib/action-result";
import { DISPLAY_NAME_MAX } from "~/lib/auth-validation";

/** Name, e-mail and id; the display name is the one an owner may change here. */
export function ProfileCard({ user }: { user: { id: string; email: string | null; displayName: string | null } }) {
  const fetcher = useFetcher<ActionResult>();
  const busy = fetcher.state !== "idle";
  const error = fetcher.data && !fetcher.data.ok ? fetcher.data.error : null;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Profile</CardTitle>
        <CardDescription>How you appear and sign in.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <fetcher.Form method="post" className="space-y-2" noValidate>
          <input type="hidden" name="intent" value="updateProfile" />
          <Label htmlFor="settings-display-name">Display Name</Label>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Input
              id="settings-display-name"
              name="displayName"
              defaultValue={user.displayName ?? ""}
              maxLength={DISPLAY_NAME_MAX}
              required
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? "settings-display-name-error" : undefined}
            />
            <Button type="submit" disabled={busy} className="shrink-0">
              {busy ? "Saving..." : "Save name"}
            </Button>
          </div>
          <FormError id="settings-display-name-error" message={error} />
        </fetcher.Form>
        <div className="space-y-2">
          <Label htmlFor="settings-email">Email</Label>
          <Input id="settings-email" value={user.email ?? "No email address"} readOnly disabled className="font-normal" />
          <p className="text-xs text-muted-foreground">Change it under Email address below.</p>
        </div>
        <div className="space-y-2">
          <Label htmlFor="settings-user-id">User ID</Label>
          <Input id="settings-user-id" value={user.id} readOnly disabled className="font-normal" />
        </div>
      </CardContent>
    </Card>
  );
}
