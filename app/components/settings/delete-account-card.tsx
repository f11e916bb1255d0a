import { useState } from "react";
import { useFetcher } from "react-router";
import { AuthField, FormError } from "~/components/auth/auth-fields";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import type { ActionResult } from "~/lib/action-result";

export const DELETE_ACCOUNT_PHRASE = "delete my account";

/** Deleting the account for good, behind a typed phrase (and the password where there is one). */
export function DeleteAccountCard({ hasPassword }: { hasPassword: boolean }) {
  const fetcher = useFetcher<ActionResult>();
  const [phrase, setPhrase] = useState("");
  const busy = fetcher.state !== "idle";
  const error = fetcher.data && !fetcher.data.ok ? fetcher.data.error : null;
  return (
    <Card className="border-destructive/50">
      <CardHeader>
        <CardTitle className="text-destructive">Delete account</CardTitle>
        <CardDescription>
          Removes every server, file, API key and session of this account and cancels any subscription. Links to your files stop working. This cannot be undone.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <fetcher.Form method="post" className="grid gap-4 sm:grid-cols-2" noValidate>
          <input type="hidden" name="intent" value="deleteAccount" />
          <div className="space-y-2">
            <Label htmlFor="settings-delete-phrase">{`Type "${DELETE_ACCOUNT_PHRASE}" to confirm`}</Label>
            <Input id="settings-delete-phrase" name="confirmPhrase" autoComplete="off" value={phrase} onChange={(e) => setPhrase(e.target.value)} required />
          </div>
          {hasPassword ? (
            <AuthField id="settings-delete-password" label="Current password" name="currentPassword" type="password" autoComplete="current-password" maxLength={128} required />
          ) : null}
          <div className="space-y-3 sm:col-span-2">
            <FormError message={error} />
            <Button type="submit" variant="destructive" disabled={busy || phrase.trim().toLowerCase() !== DELETE_ACCOUNT_PHRASE}>
              {busy ? "Deleting..." : "Delete account"}
            </Button>
          </div>
        </fetcher.Form>
      </CardContent>
    </Card>
  );
}
