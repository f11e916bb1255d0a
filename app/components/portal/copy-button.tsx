import { Check, Copy } from "lucide-react";
import { useState } from "react";
import { showToast } from "~/lib/toast";
import { Button, type ButtonProps } from "~/components/ui/button";

export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    showToast({ type: "success", title: "Copied to clipboard" });
    return true;
  } catch {
    showToast({ type: "error", title: "Failed to copy", description: "Could not copy to clipboard. Please copy manually." });
    return false;
  }
}

export function CopyButton({ text, label = "Copy", ...props }: { text: string; label?: string } & Omit<ButtonProps, "onClick">) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      type="button"
      variant="outline"
      size="sm"
      aria-label={label}
      onClick={async () => {
        if (await copyText(text)) {
          setCopied(true);
          setTimeout(() => setCopied(false), 1500);
        }
      }}
      {...props}
    >
      {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
      <span className="sr-only sm:not-sr-only">{label}</span>
    </Button>
  );
}
