import { data, Link } from "react-router";
import { pageTitle } from "~/lib/site";
import { loadStaticPageAsDocument, STATIC_PAGE_HANDLE } from "~/lib/static-page";
import type { Route } from "./+types/not-found";

export async function loader({ request, context }: Route.LoaderArgs) {
  const path = new URL(request.url).pathname;
  context.logger.warn({ path, requestId: context.requestId }, "404 page not found");
  return data({ path, appName: context.config.APP_NAME }, { status: 404 });
}

export const handle = STATIC_PAGE_HANDLE;
export const clientLoader = loadStaticPageAsDocument;

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: pageTitle("Page Not Found", loaderData?.appName) }, { name: "robots", content: "noindex" }];
}

export default function NotFound({ loaderData }: Route.ComponentProps) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 p-8 text-center">
      <p className="font-mono text-7xl font-black text-primary">404</p>
      <h1 className="text-2xl font-semibold">Oops! Page not found</h1>
      <p className="max-w-md break-all text-muted-foreground">
        Nothing lives at <code className="font-mono">{loaderData.path}</code>.
      </p>
      <Link to="/" className="text-primary underline underline-offset-4 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
        Return to Home
      </Link>
    </main>
  );
}
