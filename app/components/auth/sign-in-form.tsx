import { useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { validateSignIn } from "~/lib/auth-validation";
import { EmailField, FormError, PasswordField } from "~/components/auth/auth-fields";

export interface SignInFormProps {
  redirectTo: string;
  serverError?: string | null;
  defaultEmail?: string;
  offerResend?: boolean;
}

export function SignInForm({ redirectTo, serverError, defaultEmail = "", offerResend = false }: SignInFormProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "signin";
  const [email, setEmail] = useState(defaultEmail);
  const [password, setPassword] = useState("");
  const [clientError, setClientError] = useState<string | null>(null);

  return (
    <Form
      method="post"
      className="space-y-4"
      noValidate
      onSubmit={(event) => {
        const result = validateSignIn({ email, password });
        if (!result.ok) {
          event.preventDefault();
          setClientError(result.error);
        } else {
          setClientError(null);
        }
      }}
    >
      <input type="hidden" name="intent" value="signin" />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <FormError message={clientError ?? serverError} />
      {offerResend && !clientError ? (
        <p className="text-sm">
          <Link to="/auth/confirm" className="text-primary underline underline-offset-4">
            Resend the confirmation email
          </Link>
        </p>
      ) : null}
      <EmailField id="signin-email" value={email} onValueChange={setEmail} disabled={busy} />
      <PasswordField id="signin-password" autoComplete="current-password" value={password} onValueChange={setPassword} disabled={busy} />
      <div className="flex justify-end">
        <Link to="/auth/forgot-password" className="text-sm text-primary underline-offset-4 hover:underline">
          Forgot password?
        </Link>
      </div>
      <Button type="submit" className="w-full" disabled={busy}>
        {busy ? "Signing in..." : "Sign In"}
      </Button>
    </Form>
  );
}
