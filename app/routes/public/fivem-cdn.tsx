import { Check, X } from "lucide-react";
import { Link } from "react-router";
import { CtaBand } from "~/components/marketing/cta-band";
import { FeatureIcon } from "~/components/marketing/feature-icon";
import { PlanCards } from "~/components/marketing/plan-cards";
import { UseCaseTabs } from "~/components/marketing/use-case-tabs";
import { Section, SectionHeading } from "~/components/marketing/section";
import { buttonVariants } from "~/components/ui/button";
import { brand, FIVEM_CDN } from "~/lib/content/marketing";
import { seoMeta } from "~/lib/seo";
import { cn } from "~/lib/utils";
import { getOptionalUser } from "~/http/guards.server";
import type { Route } from "./+types/fivem-cdn";

export async function loader({ request, context }: Route.LoaderArgs) {
  return {
    appName: context.config.APP_NAME,
    appUrl: context.config.appUrl,
    cdnUrl: context.config.cdnBaseUrl,
    signedIn: Boolean(await getOptionalUser(request, context)),
  };
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [];
  const { appName, appUrl } = loaderData;
  return seoMeta({ title: FIVEM_CDN.title, description: FIVEM_CDN.description, keywords: FIVEM_CDN.keywords, path: "/fivem-cdn", appName, appUrl });
}

export default function FivemCdn({ loaderData }: Route.ComponentProps) {
  const { appName, appUrl, cdnUrl, signedIn } = loaderData;
  const b = (text: string) => brand(text, appName);
  const heroTo = signedIn ? "/dashboard" : "/auth";
  return (
    <>
      <section aria-labelledby="hero-title" className="hero-backdrop border-b border-border/60">
        <div className="mx-auto max-w-4xl px-4 pb-20 pt-16 text-center sm:px-6 md:pt-24">
          <p className="mb-5 inline-flex rounded-full border border-primary/30 bg-primary/10 px-3 py-1 font-mono text-xs font-semibold uppercase tracking-[0.18em] text-primary">
            {FIVEM_CDN.eyebrow}
          </p>
          <h1 id="hero-title" className="text-balance text-4xl font-black leading-[1.05] tracking-tight sm:text-5xl md:text-6xl">
            {FIVEM_CDN.headline}
          </h1>
          <p className="mx-auto mt-6 max-w-2xl text-pretty text-lg text-muted-foreground">{b(FIVEM_CDN.lead)}</p>
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
            <Link to={heroTo} className={buttonVariants({ size: "lg" })} data-testid="hero-cta">
              {signedIn ? FIVEM_CDN.heroCtaSignedIn : FIVEM_CDN.heroCtaSignedOut}
            </Link>
            <Link to="/pricing" className={buttonVariants({ size: "lg", variant: "outline" })}>
              {FIVEM_CDN.heroSecondary}
            </Link>
          </div>
        </div>
      </section>

      <Section labelledBy="comparison-title">
        <SectionHeading id="comparison-title" title={b(FIVEM_CDN.comparisonTitle)} lead={FIVEM_CDN.comparisonLead} />
        {/* Below 640 px each row becomes a card: topic, then both answers labelled by their column. */}
        <div className="rounded-xl border bg-card sm:overflow-x-auto">
          <table className="w-full text-left text-sm max-sm:block">
            <thead className="max-sm:sr-only">
              <tr className="border-b">
                {FIVEM_CDN.comparisonColumns.map((column, i) => (
                  <th key={column || "topic"} scope="col" className={cn("px-5 py-4 font-semibold", i === 2 && "text-primary")}>
                    {column ? b(column) : <span className="sr-only">Topic</span>}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="max-sm:block">
              {FIVEM_CDN.comparison.map((row) => (
                <tr key={row.topic} className="border-b last:border-0 max-sm:block max-sm:px-4 max-sm:py-3">
                  <th scope="row" className="px-5 py-4 font-medium max-sm:block max-sm:p-0 max-sm:pb-1.5">
                    {row.topic}
                  </th>
                  <td className="px-5 py-4 text-muted-foreground max-sm:block max-sm:p-0 max-sm:py-1">
                    <span className="flex gap-2">
                      <X className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden="true" />
                      <span>
                        <span className="font-medium sm:hidden">Discord: </span>
                        {row.webhook}
                      </span>
                    </span>
                  </td>
                  <td className="px-5 py-4 max-sm:block max-sm:p-0 max-sm:py-1">
                    <span className="flex gap-2">
                      <Check className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
                      <span>
                        <span className="font-medium text-primary sm:hidden">{appName}: </span>
                        {row.us}
                      </span>
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Section>

      <Section labelledBy="cdn-features-title" className="pt-0 md:pt-0">
        <SectionHeading id="cdn-features-title" title={FIVEM_CDN.featuresTitle} />
        <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
          {FIVEM_CDN.features.map((feature) => (
            <li key={feature.title} className="rounded-xl border bg-card p-6">
              <FeatureIcon name={feature.icon} />
              <h3 className="mt-4 text-lg font-semibold">{feature.title}</h3>
              <p className="mt-2 text-sm text-muted-foreground">{feature.body}</p>
            </li>
          ))}
        </ul>
      </Section>

      <Section labelledBy="use-cases-title" className="pt-0 md:pt-0">
        <SectionHeading id="use-cases-title" title={FIVEM_CDN.useCasesTitle} lead={FIVEM_CDN.useCasesLead} />
        <UseCaseTabs bases={{ appUrl, cdnUrl }} />
      </Section>

      <Section labelledBy="cdn-pricing-title" className="pt-0 md:pt-0">
        <SectionHeading id="cdn-pricing-title" title={FIVEM_CDN.pricingTitle} lead={FIVEM_CDN.pricingLead} />
        <PlanCards />
      </Section>

      <CtaBand title={FIVEM_CDN.ctaTitle} lead={FIVEM_CDN.ctaLead} primaryTo={heroTo} primaryLabel={signedIn ? FIVEM_CDN.heroCtaSignedIn : undefined} />
    </>
  );
}
