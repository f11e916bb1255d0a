import { useState } from "react";
import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { MESSAGES, validateSignUp } from "~/lib/auth-validation";
import { sanitizeInput } from "~/lib/sanitize";
import { AuthField, EmailField, FormError, PasswordField } from "~/components/auth/auth-fields";

export interface SignUpFormProps {
  serverError?: string | null;
  defaults?: { displayName?: string; email?: string };
}

export function SignUpForm({ serverError, defaults }: SignUpFormProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "signup";
  const [displayName, setDisplayName] = useState(defaults?.displayName ?? "");
  const [email, setEmail] = useState(defaults?.email ?? "");
  const [password, setPassword] = useState("");
  const [clientError, setClientError] = useState<string | null>(null);
  // Set when cleaning removed something the user typed or pasted, so the field says why it changed.
  const [stripped, setStripped] = useState(false);

  return (
    <Form
      method="post"
      className="space-y-4"
      noValidate
      onSubmit={(event) => {
        const result = validateSignUp({ displayName, email, password });
        if (!result.ok) {
          event.preventDefault();
          setClientError(result.error);
        } else {
          setClientError(null);
        }
      }}
    >
      <input type="hidden" name="intent" value="signup" />
      <FormError message={clientError ?? serverError} />
      <AuthField
        id="signup-display-name"
        label="Display Name"
        name="displayName"
        autoComplete="nickname"
        placeholder="Your name"
        value={displayName}
        onChange={(e) => {
          const cleaned = sanitizeInput(e.target.value, { trim: false });
          setStripped(cleaned !== e.target.value);
          setDisplayName(cleaned);
        }}
        disabled={busy}
        maxLength={100}
        aria-describedby={stripped ? "signup-display-name-note" : undefined}
      />
      {stripped ? (
        <p id="signup-display-name-note" role="status" className="-mt-2 text-xs text-muted-foreground">
          {MESSAGES.displayNameMarkup}
        </p>
      ) : null}
      <EmailField id="signup-email" value={email} onValueChange={setEmail} disabled={busy} />
      <PasswordField id="signup-password" autoComplete="new-password" value={password} onValueChange={setPassword} disabled={busy} />
      <Button type="submit" className="w-full" disabled={busy}>
        {busy ? "Creating account..." : "Create Account"}
      </Button>
    </Form>
  );
}
