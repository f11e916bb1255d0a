import { useId, type ReactNode } from "react";
import { API_EXAMPLES, toCurl, type ApiExampleName, type Bases } from "~/lib/content/api-examples";
import type { Snippet } from "~/lib/content/script-snippets";
import { CodeBlock } from "~/components/docs/code-block";

export function DocSection({ id, title, children, level = 2 }: { id: string; title: string; children: ReactNode; level?: 2 | 3 }) {
  const Heading = level === 2 ? "h2" : "h3";
  return (
    <section id={id} aria-labelledby={`${id}-title`} className={level === 2 ? "border-t border-border/60 pt-10 first:border-0 first:pt-0" : "pt-6"}>
      <Heading id={`${id}-title`} className={level === 2 ? "mb-4 text-2xl font-bold tracking-tight" : "mb-3 text-lg font-semibold"}>
        <a href={`#${id}`} className="hover:text-primary focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
          {title}
        </a>
      </Heading>
      <div className="space-y-4 leading-relaxed text-foreground/90">{children}</div>
    </section>
  );
}

export function Curl({ name, bases }: { name: ApiExampleName; bases: Bases }) {
  const example = API_EXAMPLES[name];
  return <CodeBlock code={toCurl(example, bases)} language="bash" label={`curl · ${example.method} ${example.path.startsWith("/") ? example.path : "presigned URL"}`} />;
}

export function SnippetBlock({ snippet }: { snippet: Snippet }) {
  return <CodeBlock code={snippet.code} language={snippet.language} label={snippet.filename} />;
}

export function Json({ value, label }: { value: unknown; label: string }) {
  return <CodeBlock code={JSON.stringify(value, null, 2)} language="json" label={label} />;
}

export function C({ children }: { children: ReactNode }) {
  return <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-[0.85em] [overflow-wrap:anywhere]">{children}</code>;
}

/**
 * Narrow screens scroll the table sideways, so the scroller takes keyboard focus (arrow keys scroll it)
 * and is named by the table's caption.
 */
export function Table({ caption, head, rows }: { caption: string; head: string[]; rows: ReactNode[][] }) {
  const captionId = useId();
  return (
    <div
      role="region"
      aria-labelledby={captionId}
      tabIndex={0}
      className="overflow-x-auto rounded-lg border focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
    >
      <table className="w-full min-w-[520px] text-left text-sm">
        <caption id={captionId} className="sr-only">
          {caption}
        </caption>
        <thead className="bg-muted/50">
          <tr>
            {head.map((h) => (
              <th key={h} scope="col" className="px-4 py-2.5 font-semibold">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={i} className="border-t align-top">
              {row.map((cell, j) => (
                <td key={j} className="px-4 py-2.5">
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function Callout({ children, tone = "info" }: { children: ReactNode; tone?: "info" | "warn" }) {
  return (
    <div className={tone === "warn" ? "rounded-lg border border-amber-500/40 bg-amber-500/10 p-4 text-sm" : "rounded-lg border border-primary/30 bg-primary/5 p-4 text-sm"}>
      {children}
    </div>
  );
}
