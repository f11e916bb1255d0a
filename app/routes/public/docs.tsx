import { DocsNav } from "~/components/docs/docs-nav";
import { ApiReference } from "~/components/docs/docs-api-reference";
import { GettingStarted } from "~/components/docs/docs-getting-started";
import { Guides } from "~/components/docs/docs-guides";
import { MovingToStash } from "~/components/docs/docs-moving";
import { UseCases } from "~/components/docs/docs-use-cases";
import { JsonLd } from "~/components/marketing/json-ld";
import { brand, DOCS } from "~/lib/content/marketing";
import { seoMeta, techArticleLd } from "~/lib/seo";
import type { Route } from "./+types/docs";

export async function loader({ context }: Route.LoaderArgs) {
  return {
    appName: context.config.APP_NAME,
    appUrl: context.config.appUrl,
    cdnUrl: context.config.cdnBaseUrl,
    maxUploadMb: context.config.MAX_UPLOAD_MB,
  };
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [];
  const { appName, appUrl } = loaderData;
  return seoMeta({ title: DOCS.title, description: brand(DOCS.description, appName), keywords: DOCS.keywords, path: "/docs", appName, appUrl });
}

export default function Docs({ loaderData }: Route.ComponentProps) {
  const { appName, appUrl, cdnUrl, maxUploadMb } = loaderData;
  const bases = { appUrl, cdnUrl };
  return (
    <div className="mx-auto grid max-w-6xl grid-cols-[minmax(0,1fr)] gap-10 px-4 py-10 sm:px-6 lg:grid-cols-[220px_minmax(0,1fr)] lg:py-14">
      <JsonLd data={techArticleLd(appName, appUrl, `${appName} ${DOCS.headline}`, brand(DOCS.description, appName))} />
      <aside>
        <DocsNav />
      </aside>
      <article className="min-w-0 max-w-3xl">
        <header className="mb-10">
          <p className="mb-3 font-mono text-xs font-semibold uppercase tracking-[0.2em] text-primary">Docs</p>
          <h1 className="text-4xl font-black tracking-tight md:text-5xl">{DOCS.headline}</h1>
          <p className="mt-4 text-lg text-muted-foreground">{brand(DOCS.lead, appName)}</p>
        </header>
        <div className="space-y-12">
          <GettingStarted bases={bases} appName={appName} />
          <UseCases bases={bases} />
          <ApiReference bases={bases} maxUploadMb={maxUploadMb} />
          <Guides bases={bases} appName={appName} />
          <MovingToStash bases={bases} appName={appName} />
        </div>
      </article>
    </div>
  );
}
