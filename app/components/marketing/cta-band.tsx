import { Link } from "react-router";
import { buttonVariants } from "~/components/ui/button";
import { CTA } from "~/lib/content/marketing";
import { cn } from "~/lib/utils";

export function CtaBand({ title, lead, primaryTo = "/auth", primaryLabel = CTA.primary }: { title: string; lead: string; primaryTo?: string; primaryLabel?: string }) {
  return (
    <section aria-labelledby="cta-title" className="mx-auto w-full max-w-6xl px-4 pb-20 sm:px-6">
      <div className="relative overflow-hidden rounded-2xl border border-primary/30 bg-[radial-gradient(ellipse_at_top,color-mix(in_oklch,var(--primary)_22%,transparent),transparent_70%)] px-6 py-14 text-center">
        <h2 id="cta-title" className="text-balance text-3xl font-bold tracking-tight md:text-4xl">
          {title}
        </h2>
        <p className="mx-auto mt-4 max-w-xl text-muted-foreground md:text-lg">{lead}</p>
        <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
          <Link to={primaryTo} className={cn(buttonVariants({ size: "lg" }))}>
            {primaryLabel}
          </Link>
          <Link to="/pricing" className={cn(buttonVariants({ size: "lg", variant: "outline" }))}>
            {CTA.secondary}
          </Link>
        </div>
      </div>
    </section>
  );
}
