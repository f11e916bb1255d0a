import { Form, Link } from "react-router";
import { Button } from "~/components/ui/button";
import { AuthField, FormError } from "~/components/auth/auth-fields";
import { FormNotice } from "~/components/auth/auth-frame";

/** The body of the "send me a link" pages: one e-mail field, or the notice once it is sent. */
export function EmailLinkForm({
  id,
  submitLabel,
  busy,
  error,
  sent,
}: {
  id: string;
  submitLabel: string;
  busy: boolean;
  error?: string | null;
  sent?: string | null;
}) {
  return (
    <>
      {sent ? (
        <FormNotice message={sent} />
      ) : (
        <Form method="post" className="space-y-4">
          <FormError message={error} />
          <AuthField id={id} label="Email" name="email" type="email" autoComplete="email" maxLength={254} disabled={busy} />
          <Button type="submit" className="w-full" disabled={busy}>
            {busy ? "Sending..." : submitLabel}
          </Button>
        </Form>
      )}
      <p className="text-center text-sm">
        <Link to="/auth" className="text-primary underline-offset-4 hover:underline">
          Back to sign in
        </Link>
      </p>
    </>
  );
}
