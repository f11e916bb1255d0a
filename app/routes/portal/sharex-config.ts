import { sharexConfig, KEY_PLACEHOLDER } from "~/lib/integration-snippets";
import { requireTeam } from "~/http/guards.server";
import type { Route } from "./+types/sharex-config";

/** The ShareX custom uploader file; the key is a placeholder because keys are never stored readable. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireTeam(request, context, "manage_keys");
  const name = context.config.APP_NAME;
  const body = JSON.stringify(sharexConfig(context.config.appUrl, name, KEY_PLACEHOLDER), null, 2);
  const file = `${name.replace(/[^A-Za-z0-9_-]+/g, "-") || "stash"}.sxcu`;
  return new Response(body, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${file}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
