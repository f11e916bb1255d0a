import { data } from "react-router";
import { INFO_PAGES, withAppName } from "~/lib/content/legal";
import { formatDate } from "~/lib/format";
import { seoMeta } from "~/lib/seo";
import type { Route } from "./+types/info-page";

/** /about, /terms and /privacy: one module, the page picked by the path (app/lib/content/legal.ts holds the text). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const path = new URL(request.url).pathname.replace(/\/+$/, "");
  const page = Object.values(INFO_PAGES).find((p) => p.path === path);
  if (!page) throw data("Not found", { status: 404 });
  return { page, appName: context.config.APP_NAME, appUrl: context.config.appUrl };
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [];
  const { page, appName, appUrl } = loaderData;
  return seoMeta({ title: withAppName(page.title, appName), description: withAppName(page.description, appName), keywords: [], path: page.path, appName, appUrl });
}

export default function InfoPage({ loaderData }: Route.ComponentProps) {
  const { page, appName } = loaderData;
  return (
    <article className="mx-auto max-w-3xl px-4 py-16 sm:px-6" aria-labelledby="info-title">
      <h1 id="info-title" className="text-balance text-4xl font-black tracking-tight">
        {withAppName(page.title, appName)}
      </h1>
      <p className="mt-4 text-lg text-muted-foreground">{withAppName(page.description, appName)}</p>
      <p className="mt-2 text-sm text-muted-foreground">{`Last updated ${formatDate(page.updated)}`}</p>
      {page.sections.map((section) => (
        <section key={section.heading} className="mt-10 space-y-3">
          <h2 className="text-xl font-bold tracking-tight">{section.heading}</h2>
          {section.paragraphs.map((paragraph) => (
            <p key={paragraph.slice(0, 40)} className="leading-relaxed text-muted-foreground">
              {withAppName(paragraph, appName)}
            </p>
          ))}
        </section>
      ))}
    </article>
  );
}
