import { DISALLOWED_PATHS } from "~/lib/seo";
import type { Route } from "./+types/robots";

export async function loader({ context }: Route.LoaderArgs) {
  const lines = ["User-agent: *", "Allow: /", ...DISALLOWED_PATHS.map((path) => `Disallow: ${path}`), "", `Sitemap: ${context.config.appUrl}/sitemap.xml`, ""];
  return new Response(lines.join("\n"), {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
