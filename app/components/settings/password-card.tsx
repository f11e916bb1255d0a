import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import { AuthField, FormError } from "~/components/auth/auth-fields";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import type { ActionResult } from "~/lib/action-result";

/** Change the password: the current one proves it is the owner; every other session is signed out. */
export function PasswordCard() {
  const fetcher = useFetcher<ActionResult>();
  const formRef = useRef<HTMLFormElement>(null);
  const busy = fetcher.state !== "idle";
  const error = fetcher.data && !fetcher.data.ok ? fetcher.data.error : null;
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) formRef.current?.reset();
  }, [fetcher.state, fetcher.data]);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Password</CardTitle>
        <CardDescription>Changing it signs out every other device.</CardDescription>
      </CardHeader>
      <CardContent>
        <fetcher.Form method="post" ref={formRef} className="grid gap-4 sm:grid-cols-2" noValidate>
          <input type="hidden" name="intent" value="changePassword" />
          <div className="sm:col-span-2">
            <AuthField id="settings-current-password" label="Current password" name="currentPassword" type="password" autoComplete="current-password" maxLength={128} required />
          </div>
          <AuthField id="settings-new-password" label="New password" name="newPassword" type="password" autoComplete="new-password" maxLength={128} required />
          <AuthField id="settings-confirm-password" label="Confirm new password" name="confirmPassword" type="password" autoComplete="new-password" maxLength={128} required />
          <div className="space-y-3 sm:col-span-2">
            <FormError message={error} />
            <Button type="submit" disabled={busy}>
              {busy ? "Updating..." : "Update password"}
            </Button>
          </div>
        </fetcher.Form>
      </CardContent>
    </Card>
  );
}
