import { ShieldAlert } from "lucide-react";
import { useEffect, useRef } from "react";
import { CopyButton } from "~/components/portal/copy-button";
import { Button } from "~/components/ui/button";

/** The full key, once: it is not stored, so after "Got it" it cannot be shown again. */
export function KeyBanner({ secret, keyName, onDismiss }: { secret: string; keyName: string; onDismiss: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), [secret]);
  return (
    <div
      ref={ref}
      tabIndex={-1}
      role="region"
      aria-label="New API key"
      className="space-y-3 rounded-lg border border-primary/60 bg-primary/10 p-4 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      data-testid="key-banner"
    >
      <div className="flex items-start gap-2">
        <ShieldAlert className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden />
        <div>
          <p className="font-semibold">Your new API key{keyName ? ` "${keyName}"` : ""}</p>
          <p className="text-sm text-muted-foreground">Copy it now and store it safely. For your security it will not be shown again.</p>
        </div>
      </div>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <code className="min-w-0 flex-1 break-all rounded-md border bg-background px-3 py-2 font-mono text-sm" data-testid="full-key">
          {secret}
        </code>
        <div className="flex gap-2">
          <CopyButton text={secret} label="Copy key" />
          <Button size="sm" onClick={onDismiss}>
            Got it
          </Button>
        </div>
      </div>
    </div>
  );
}
