import { methodNotAllowed } from "~/http/api-response.server";
import { withApiKey } from "~/http/api-route.server";
import { importAnswer } from "~/http/import-answers.server";
import { readImportRequest } from "~/http/import-request.server";
import { appendImportUrls, cancelImport, startImport } from "~/services/imports/imports.server";
import { parseId } from "~/services/platform/ids.server";
import type { ImportId } from "~/lib/ids";
import type { Route } from "./+types/import-action";

/** The audit action of each step, written out so the trail's labels can be checked. */
const STEPS = { urls: "import.urls", start: "import.start", cancel: "import.cancel" } as const;

/** POST /api/imports/{id}/urls {urls} (a draft's next batch), /start and /cancel. */
export async function action({ request, params, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST, OPTIONS", "Use POST");
  const last = new URL(request.url).pathname.replace(/\/+$/, "").split("/").pop();
  const step: keyof typeof STEPS = last === "urls" || last === "start" ? last : "cancel";
  return withApiKey(context, request, { action: STEPS[step], permission: "upload" }, async (caller) => {
    const id = parseId<ImportId>(params.id);
    if (step === "urls") {
      const received = await readImportRequest(context, request);
      try {
        await appendImportUrls(context, caller.teamId, id, received.fields.urls ?? received.file?.text);
      } finally {
        await received.cleanup();
      }
    } else if (step === "start") {
      await startImport(context.db, caller.teamId, id);
    } else {
      await cancelImport(context, caller.teamId, id);
    }
    return importAnswer(context, caller.teamId, id);
  });
}

export function loader() {
  return methodNotAllowed("POST, OPTIONS", "Use POST");
}
