import { Check, Copy } from "lucide-react";
import { cn } from "~/lib/utils";

export interface CodeBlockProps {
  code: string;
  language: string;
  /** Shown in the header, e.g. a file name or "curl". */
  label?: string;
  className?: string;
}

/**
 * A code sample on the public pages. The code is server-rendered text; the copy button is wired by
 * the pages' inline script (`public-page-script.ts`) and only shown when scripts run.
 */
export function CodeBlock({ code, language, label, className }: CodeBlockProps) {
  return (
    <figure className={cn("group my-4 overflow-hidden rounded-lg border border-border bg-[#0f1014] text-zinc-100", className)} data-language={language}>
      <figcaption className="flex min-h-11 items-center justify-between gap-2 border-b border-white/10 py-1.5 pl-4 pr-1.5">
        <span className="truncate font-mono text-xs text-zinc-400">{label ?? language}</span>
        <button
          type="button"
          data-copy=""
          aria-label={label ? `Copy ${label}` : "Copy code"}
          className="group/copy hidden h-8 items-center gap-1.5 rounded-md px-2.5 text-xs font-medium text-zinc-300 transition-colors hover:bg-white/10 hover:text-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring js:inline-flex"
        >
          <Copy className="size-3.5 group-data-copied/copy:hidden" aria-hidden="true" />
          <Check className="hidden size-3.5 text-emerald-400 group-data-copied/copy:block" aria-hidden="true" />
          <span className="group-data-copied/copy:hidden">Copy</span>
          <span className="hidden group-data-copied/copy:inline">Copied</span>
        </button>
      </figcaption>
      {/* Focusable and named, so keyboard users can scroll long lines; the ring is inset because the figure clips. */}
      <pre
        tabIndex={0}
        role="region"
        aria-label={label ?? language}
        className="overflow-x-auto p-4 text-[13px] leading-relaxed focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-ring"
      >
        <code className="font-mono">{code}</code>
      </pre>
    </figure>
  );
}
