import { methodNotAllowed } from "~/http/api-response.server";
import { withApiKey } from "~/http/api-route.server";
import { importAnswer, urlMapAnswer } from "~/http/import-answers.server";
import { readSmallBody } from "~/http/small-body.server";
import { appendImportUrls, cancelImport, startImport } from "~/services/imports/imports.server";
import { DomainError } from "~/services/platform/domain-error.server";
import { parseId } from "~/services/platform/ids.server";
import type { ImportId } from "~/lib/ids";
import type { Route } from "./+types/import";

/** GET /api/imports/{id}[/map.csv|/map.json]: progress, then the report; the old → new link map. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  return withApiKey(context, request, { action: "import.read", permission: "read", audited: false }, async (caller) => {
    const id = parseId<ImportId>(params.id);
    if (!params.part) return importAnswer(context, caller.teamId, id);
    if (params.part === "map.csv" || params.part === "map.json") return urlMapAnswer(context, caller.teamId, id, params.part === "map.csv" ? "csv" : "json");
    throw new DomainError("not_found", "Not found");
  });
}

/** POST /api/imports/{id}/urls {urls} (a draft's next batch), /start, /cancel. */
export async function action({ request, params, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET, POST, OPTIONS", "Use POST");
  return withApiKey(context, request, { action: `import.${params.part ?? "update"}`, permission: "upload" }, async (caller) => {
    const id = parseId<ImportId>(params.id);
    if (params.part === "urls") {
      const body = await readSmallBodyLarge(request);
      await appendImportUrls(context, caller.teamId, id, body.urls);
    } else if (params.part === "start") {
      await startImport(context.db, caller.teamId, id);
    } else if (params.part === "cancel") {
      await cancelImport(context, caller.teamId, id);
    } else {
      throw new DomainError("not_found", "Not found");
    }
    return importAnswer(context, caller.teamId, id);
  });
}

/** A batch of URLs is larger than the usual small body. */
async function readSmallBodyLarge(request: Request): Promise<Record<string, unknown>> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.includes("json")) return readSmallBody(request);
  const text = await request.text();
  if (text.length > 8 * 1024 * 1024) throw new DomainError("invalid_request", "Send at most 8 MB of URLs per batch");
  try {
    const value = JSON.parse(text || "{}");
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // Answered below.
  }
  throw new DomainError("invalid_request", "The body must be a JSON object");
}
