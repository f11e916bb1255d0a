import type { ComponentProps } from "react";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { sanitizeInput } from "~/lib/sanitize";

export function AuthField({ id, label, ...props }: ComponentProps<typeof Input> & { id: string; label: string }) {
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} {...props} />
    </div>
  );
}

interface ValueFieldProps {
  id: string;
  value: string;
  onValueChange: (value: string) => void;
  disabled?: boolean;
}

/** The e-mail box of the sign-in and sign-up forms: control characters and markup are dropped as typed. */
export function EmailField({ id, value, onValueChange, disabled }: ValueFieldProps) {
  return (
    <AuthField
      id={id}
      label="Email"
      name="email"
      type="email"
      autoComplete="email"
      placeholder="you@example.com"
      value={value}
      onChange={(e) => onValueChange(sanitizeInput(e.target.value, { trim: false }))}
      disabled={disabled}
      maxLength={254}
    />
  );
}

/** A password box; `autoComplete` tells password managers whether to fill or to generate. */
export function PasswordField({ autoComplete, id, value, onValueChange, disabled }: ValueFieldProps & { autoComplete: "current-password" | "new-password" }) {
  return (
    <AuthField
      id={id}
      label="Password"
      name="password"
      type="password"
      autoComplete={autoComplete}
      value={value}
      onChange={(e) => onValueChange(e.target.value)}
      disabled={disabled}
      maxLength={128}
    />
  );
}

export function FormError({ message, id }: { message?: string | null; id?: string }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive">
      {message}
    </p>
  );
}

export function DiscordButton({ redirectTo, label = "Continue with Discord" }: { redirectTo: string; label?: string }) {
  return (
    <form method="post" action="/auth/discord">
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <button
        type="submit"
        className="inline-flex h-10 w-full items-center justify-center gap-2 rounded-md bg-[#5865F2] px-4 text-sm font-medium text-white transition-colors hover:bg-[#4752c4] focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        <svg aria-hidden viewBox="0 0 24 24" className="size-4 fill-current">
          <path d="M20.3 4.4A19.8 19.8 0 0 0 15.4 3l-.6 1.3a18.4 18.4 0 0 0-5.6 0L8.6 3a19.7 19.7 0 0 0-4.9 1.4C.6 9-.3 13.6.1 18.1a19.9 19.9 0 0 0 6 3l1.3-2.1c-.7-.3-1.4-.6-2-1l.5-.4a14.2 14.2 0 0 0 12.2 0l.5.4c-.6.4-1.3.7-2 1l1.3 2.1a19.8 19.8 0 0 0 6-3c.5-5.2-.9-9.8-3.6-13.7ZM8 15.3c-1.2 0-2.2-1.1-2.2-2.4s1-2.4 2.2-2.4 2.2 1.1 2.2 2.4-1 2.4-2.2 2.4Zm8 0c-1.2 0-2.2-1.1-2.2-2.4s1-2.4 2.2-2.4 2.2 1.1 2.2 2.4-1 2.4-2.2 2.4Z" />
        </svg>
        {label}
      </button>
    </form>
  );
}

export function OrDivider() {
  return (
    <div className="relative my-4 text-center text-xs uppercase text-muted-foreground">
      <span className="absolute inset-x-0 top-1/2 border-t" aria-hidden />
      <span className="relative bg-card px-2">or</span>
    </div>
  );
}
