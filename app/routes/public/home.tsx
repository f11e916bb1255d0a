import { BookOpen, CheckCircle2 } from "lucide-react";
import { Link } from "react-router";
import { CtaBand } from "~/components/marketing/cta-band";
import { EmailStart } from "~/components/marketing/email-start";
import { FeatureIcon } from "~/components/marketing/feature-icon";
import { JsonLd } from "~/components/marketing/json-ld";
import { Section, SectionHeading } from "~/components/marketing/section";
import { buttonVariants } from "~/components/ui/button";
import { brand, HOME } from "~/lib/content/marketing";
import { organizationLd, seoMeta, websiteLd } from "~/lib/seo";
import type { Route } from "./+types/home";

export async function loader({ context }: Route.LoaderArgs) {
  return { appName: context.config.APP_NAME, appUrl: context.config.appUrl };
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [];
  const { appName, appUrl } = loaderData;
  return seoMeta({ title: HOME.title, description: brand(HOME.description, appName), keywords: HOME.keywords, path: "/", appName, appUrl });
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { appName, appUrl } = loaderData;
  const b = (text: string) => brand(text, appName);
  return (
    <>
      <JsonLd data={[organizationLd(appName, appUrl), websiteLd(appName, appUrl, b(HOME.description))]} />

      <section aria-labelledby="hero-title" className="hero-backdrop relative overflow-hidden border-b border-border/60">
        <div className="mx-auto grid max-w-6xl gap-12 px-4 pb-20 pt-16 sm:px-6 md:pt-24 lg:grid-cols-[1.25fr_1fr] lg:items-center">
          <div>
            <p className="mb-5 inline-flex items-center gap-2 rounded-full border border-primary/30 bg-primary/10 px-3 py-1 font-mono text-xs font-semibold uppercase tracking-[0.18em] text-primary">
              {HOME.eyebrow}
            </p>
            <h1 id="hero-title" className="text-balance text-4xl font-black leading-[1.05] tracking-tight sm:text-5xl xl:text-[3.6rem]">
              <span className="sr-only">{appName}: </span>
              {HOME.headline} <span className="text-primary">{HOME.headlineAccent}</span>
            </h1>
            <p className="mt-6 max-w-xl text-pretty text-lg text-muted-foreground">{b(HOME.lead)}</p>
            <div className="mt-8">
              <EmailStart />
            </div>
            <ul className="mt-5 flex flex-wrap gap-x-5 gap-y-2 text-sm text-muted-foreground">
              {HOME.reassurance.map((item) => (
                <li key={item} className="flex items-center gap-1.5">
                  <CheckCircle2 className="size-4 text-primary" aria-hidden="true" />
                  {item}
                </li>
              ))}
            </ul>
          </div>
          <HeroTerminal appUrl={appUrl} />
        </div>
      </section>

      <section aria-label="Stats" className="border-b border-border/60 bg-sidebar">
        <dl className="mx-auto grid max-w-6xl grid-cols-2 gap-px px-4 sm:px-6 md:grid-cols-4">
          {HOME.stats.map((stat) => (
            <div key={stat.label} className="flex flex-col px-2 py-8 text-center">
              <dt className="text-sm text-muted-foreground">{stat.label}</dt>
              <dd className="order-first mb-1 font-mono text-3xl font-black tracking-tight text-primary md:text-4xl">{stat.value}</dd>
            </div>
          ))}
        </dl>
      </section>

      <Section labelledBy="features-title">
        <SectionHeading id="features-title" title={HOME.featuresTitle} lead={b(HOME.featuresLead)} />
        <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
          {HOME.features.map((feature) => (
            <li key={feature.title} className="rounded-xl border bg-card p-6 transition-colors hover:border-primary/40">
              <FeatureIcon name={feature.icon} />
              <h3 className="mt-4 text-lg font-semibold">{b(feature.title)}</h3>
              <p className="mt-2 text-sm leading-relaxed text-muted-foreground">{b(feature.body)}</p>
            </li>
          ))}
        </ul>
      </Section>

      <Section labelledBy="scripts-title" className="pt-0 md:pt-0">
        <SectionHeading id="scripts-title" title={HOME.scriptsTitle} lead={HOME.scriptsLead} />
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          {HOME.scripts.map((script) => (
            <li key={script.name} className="flex flex-col rounded-lg border bg-card p-4">
              <div className="flex items-start justify-between gap-2">
                <h3 className="font-semibold">{script.name}</h3>
                <span className="inline-flex shrink-0 items-center gap-1 rounded-full bg-emerald-500/15 px-2 py-0.5 text-xs font-semibold text-emerald-700 dark:text-emerald-300">
                  <CheckCircle2 className="size-3" aria-hidden="true" />
                  Ready
                </span>
              </div>
              <p className="mt-1 font-mono text-xs uppercase tracking-wider text-primary">{script.kind}</p>
              <p className="mt-2 text-sm text-muted-foreground">{script.note}</p>
            </li>
          ))}
        </ul>
        <p className="mt-8 text-center">
          <Link to="/docs#integration-guide" className={buttonVariants({ variant: "outline" })}>
            <BookOpen aria-hidden="true" />
            {HOME.secondaryCta}
          </Link>
        </p>
      </Section>

      <CtaBand title={HOME.ctaTitle} lead={b(HOME.ctaLead)} />
    </>
  );
}

/** A static, accurate upload example: the product in one glance, no JavaScript needed. */
function HeroTerminal({ appUrl }: { appUrl: string }) {
  return (
    <figure className="overflow-hidden rounded-xl border border-border bg-[#0f1014] shadow-2xl shadow-black/40">
      <div className="flex items-center gap-1.5 border-b border-white/10 px-4 py-3" aria-hidden="true">
        <span className="size-3 rounded-full bg-[#ff5f57]" />
        <span className="size-3 rounded-full bg-[#febc2e]" />
        <span className="size-3 rounded-full bg-[#28c840]" />
      </div>
      {/* Long lines scroll sideways, so the scroller takes keyboard focus and needs a name. */}
      <pre
        tabIndex={0}
        role="region"
        aria-label="Example: upload an evidence photo from server.lua"
        className="overflow-x-auto p-4 font-mono text-[13px] leading-relaxed text-zinc-200 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-ring"
      >
        <code>
          <span className="text-zinc-400">-- server.lua: an evidence photo from the MDT</span>
          {"\n"}<span className="text-sky-300">local</span> body = json.encode({"{"}
          {"\n"}  data = screenshot, <span className="text-zinc-400">-- a data URI</span>
          {"\n"}  category = <span className="text-amber-300">&quot;police_evidence&quot;</span>,
          {"\n"}{"})"}
          {"\n"}PerformHttpRequest(
          {"\n"}  <span className="text-amber-300">&quot;{appUrl}/api/upload&quot;</span>,
          {"\n"}  <span className="text-sky-300">function</span>(status, res)
          {"\n"}    print(json.decode(res).url)
          {"\n"}  <span className="text-sky-300">end</span>, <span className="text-amber-300">&quot;POST&quot;</span>, body, {"{"}
          {"\n"}    [<span className="text-amber-300">&quot;x-api-key&quot;</span>] = Config.StashKey,
          {"\n"}    [<span className="text-amber-300">&quot;Content-Type&quot;</span>] = <span className="text-amber-300">&quot;application/json&quot;</span>,
          {"\n"}  {"})"}
        </code>
      </pre>
      <figcaption className="border-t border-white/10 px-4 py-2 font-mono text-xs text-emerald-300">201 Created · url: {"{cdn}"}/f/…/police_evidence/…</figcaption>
    </figure>
  );
}
