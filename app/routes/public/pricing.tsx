import { ChevronDown } from "lucide-react";
import { CtaBand } from "~/components/marketing/cta-band";
import { FeatureIcon } from "~/components/marketing/feature-icon";
import { JsonLd } from "~/components/marketing/json-ld";
import { PlanCards } from "~/components/marketing/plan-cards";
import { Section, SectionHeading } from "~/components/marketing/section";
import { StorageAddons } from "~/components/marketing/storage-addons";
import { brand, PRICING } from "~/lib/content/marketing";
import { productLd, seoMeta } from "~/lib/seo";
import type { Route } from "./+types/pricing";

export async function loader({ context }: Route.LoaderArgs) {
  return { appName: context.config.APP_NAME, appUrl: context.config.appUrl };
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [];
  const { appName, appUrl } = loaderData;
  return seoMeta({ title: PRICING.title, description: PRICING.description, keywords: PRICING.keywords, path: "/pricing", appName, appUrl });
}

export default function Pricing({ loaderData }: Route.ComponentProps) {
  const { appName, appUrl } = loaderData;
  return (
    <>
      <JsonLd data={productLd(appName, appUrl, PRICING.description)} />
      <section aria-labelledby="pricing-title" className="hero-backdrop border-b border-border/60">
        <div className="mx-auto max-w-6xl px-4 pb-16 pt-16 sm:px-6 md:pt-20">
          <div className="mx-auto mb-12 max-w-2xl text-center">
            <p className="mb-3 font-mono text-xs font-semibold uppercase tracking-[0.2em] text-primary">{PRICING.eyebrow}</p>
            <h1 id="pricing-title" className="text-balance text-4xl font-black tracking-tight md:text-5xl">
              {PRICING.headline}
            </h1>
            <p className="mt-4 text-pretty text-lg text-muted-foreground">{PRICING.lead}</p>
          </div>
          <PlanCards headingLevel={2} />
        </div>
      </section>

      <Section className="pb-0 md:pb-0">
        <StorageAddons headingId="addons-title" />
      </Section>

      <Section labelledBy="reasons-title">
        <SectionHeading id="reasons-title" title={brand(PRICING.reasonsTitle, appName)} />
        <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
          {PRICING.reasons.map((reason) => (
            <li key={reason.title} className="rounded-xl border bg-card p-6">
              <FeatureIcon name={reason.icon} />
              <h3 className="mt-4 font-semibold">{reason.title}</h3>
              <p className="mt-2 text-sm text-muted-foreground">{reason.body}</p>
            </li>
          ))}
        </ul>
      </Section>

      <Section labelledBy="faq-title" className="max-w-3xl pt-0 md:pt-0">
        <SectionHeading id="faq-title" title={PRICING.faqTitle} />
        <div className="divide-y rounded-xl border bg-card">
          {PRICING.faq.map((entry) => (
            <details key={entry.question} className="group px-5 py-4 [&_summary::-webkit-details-marker]:hidden">
              <summary className="flex cursor-pointer list-none items-center justify-between gap-4 rounded-sm font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
                <h3 className="text-base">{entry.question}</h3>
                <ChevronDown className="size-4 shrink-0 text-muted-foreground transition-transform group-open:rotate-180" aria-hidden="true" />
              </summary>
              <p className="mt-3 text-sm leading-relaxed text-muted-foreground">{entry.answer}</p>
            </details>
          ))}
        </div>
      </Section>

      <CtaBand title={PRICING.ctaTitle} lead={PRICING.ctaLead} />
    </>
  );
}
