import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import { AuthField, FormError } from "~/components/auth/auth-fields";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import type { ActionResult } from "~/lib/action-result";

/** Move the account to another address: confirmed by a link sent there; the old one works until then. */
export function EmailCard({ email, hasPassword }: { email: string | null; hasPassword: boolean }) {
  const fetcher = useFetcher<ActionResult & { pendingEmail?: string }>();
  const formRef = useRef<HTMLFormElement>(null);
  const busy = fetcher.state !== "idle";
  const error = fetcher.data && !fetcher.data.ok ? fetcher.data.error : null;
  const pending = fetcher.data?.ok ? fetcher.data.pendingEmail : undefined;
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) formRef.current?.reset();
  }, [fetcher.state, fetcher.data]);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Email address</CardTitle>
        <CardDescription>{email ? `You sign in and get account emails at ${email}.` : "This account has no email address yet."}</CardDescription>
      </CardHeader>
      <CardContent>
        <fetcher.Form method="post" ref={formRef} className="grid gap-4 sm:grid-cols-2" noValidate>
          <input type="hidden" name="intent" value="changeEmail" />
          <AuthField id="settings-new-email" label="New email address" name="newEmail" type="email" autoComplete="email" maxLength={254} required />
          {hasPassword ? (
            <AuthField id="settings-email-password" label="Current password" name="currentPassword" type="password" autoComplete="current-password" maxLength={128} required />
          ) : null}
          <div className="space-y-3 sm:col-span-2">
            <FormError message={error} />
            {pending ? (
              <p role="status" className="rounded-md border bg-muted/50 p-3 text-sm">
                {`We sent a link to ${pending}. Your address changes when you follow it; until then you keep signing in with the old one.`}
              </p>
            ) : null}
            <Button type="submit" disabled={busy}>
              {busy ? "Sending..." : "Change email"}
            </Button>
          </div>
        </fetcher.Form>
      </CardContent>
    </Card>
  );
}
