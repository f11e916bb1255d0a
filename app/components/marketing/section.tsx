import type { ReactNode } from "react";
import { cn } from "~/lib/utils";

export function Section({ id, className, children, labelledBy }: { id?: string; className?: string; children: ReactNode; labelledBy?: string }) {
  return (
    <section id={id} aria-labelledby={labelledBy} className={cn("mx-auto w-full max-w-6xl px-4 py-16 sm:px-6 md:py-24", className)}>
      {children}
    </section>
  );
}

export function SectionHeading({ id, eyebrow, title, lead, className }: { id: string; eyebrow?: string; title: string; lead?: string; className?: string }) {
  return (
    <div className={cn("mx-auto mb-10 max-w-2xl text-center md:mb-14", className)}>
      {eyebrow ? <p className="mb-3 font-mono text-xs font-semibold uppercase tracking-[0.2em] text-primary">{eyebrow}</p> : null}
      <h2 id={id} className="text-balance text-3xl font-bold tracking-tight md:text-4xl">
        {title}
      </h2>
      {lead ? <p className="mt-4 text-pretty text-muted-foreground md:text-lg">{lead}</p> : null}
    </div>
  );
}
