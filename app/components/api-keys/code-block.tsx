import { CopyButton } from "~/components/portal/copy-button";
import type { Snippet } from "~/lib/integration-snippets";

export function CodeBlock({ snippet }: { snippet: Snippet }) {
  return (
    <figure className="space-y-2">
      <figcaption className="flex items-start justify-between gap-2">
        <span>
          <span className="block font-medium">{snippet.title}</span>
          {snippet.description ? <span className="block text-sm text-muted-foreground">{snippet.description}</span> : null}
        </span>
        <CopyButton text={snippet.code} label="Copy" aria-label={`Copy ${snippet.title}`} />
      </figcaption>
      {/* Focusable and named, so keyboard users can scroll long lines. */}
      <pre
        tabIndex={0}
        role="region"
        aria-label={snippet.title}
        className="max-h-96 overflow-auto rounded-md border bg-muted/60 p-3 text-xs leading-relaxed focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        data-language={snippet.language}
      >
        <code>{snippet.code}</code>
      </pre>
    </figure>
  );
}
