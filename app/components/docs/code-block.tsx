import { Check, Copy } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { cn } from "~/lib/utils";

export const COPY_TOASTS = {
  success: { title: "Copied!", description: "Code snippet copied to clipboard" },
  failure: { title: "Failed to copy", description: "Please copy the code manually" },
} as const;

export interface CodeBlockProps {
  code: string;
  language: string;
  /** Shown in the header, e.g. a file name or "curl". */
  label?: string;
  className?: string;
}

/** A code sample with a copy button; the code itself is server-rendered text, readable without JavaScript. */
export function CodeBlock({ code, language, label, className }: CodeBlockProps) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(code);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
      toast.success(COPY_TOASTS.success.title, { description: COPY_TOASTS.success.description });
    } catch {
      toast.error(COPY_TOASTS.failure.title, { description: COPY_TOASTS.failure.description });
    }
  }
  return (
    <figure className={cn("group my-4 overflow-hidden rounded-lg border border-border bg-[#0f1014] text-zinc-100", className)} data-language={language}>
      <figcaption className="flex items-center justify-between gap-2 border-b border-white/10 py-1.5 pl-4 pr-1.5">
        <span className="truncate font-mono text-xs text-zinc-400">{label ?? language}</span>
        <button
          type="button"
          onClick={copy}
          aria-label={label ? `Copy ${label}` : "Copy code"}
          className="inline-flex h-8 items-center gap-1.5 rounded-md px-2.5 text-xs font-medium text-zinc-300 transition-colors hover:bg-white/10 hover:text-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          {copied ? <Check className="size-3.5 text-emerald-400" aria-hidden="true" /> : <Copy className="size-3.5" aria-hidden="true" />}
          {copied ? "Copied" : "Copy"}
        </button>
      </figcaption>
      <pre className="overflow-x-auto p-4 text-[13px] leading-relaxed">
        <code className="font-mono">{code}</code>
      </pre>
    </figure>
  );
}
