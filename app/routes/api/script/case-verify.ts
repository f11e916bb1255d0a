import { apiSuccess, methodNotAllowed } from "~/http/api-response.server";
import { runApi } from "~/http/api-route.server";
import { readSmallBody } from "~/http/small-body.server";
import { DomainError } from "~/services/platform/domain-error.server";
import { verifyCaseManifest } from "~/services/files/evidence-cases.server";
import type { Route } from "./+types/case-verify";
import type { AnswerBody } from "~/lib/api-contract/registry";
import { CaseVerifyRequest, type CaseVerifyAnswer } from "~/lib/api-contract/cases";

/**
 * POST /api/cases/verify {manifest, signature}: whether an exported case's manifest.json is exactly
 * what Stash signed. No key: whoever holds the zip (a court-roleplay judge) can ask.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST, OPTIONS", "Use POST");
  return runApi(context, async () => {
    const body = CaseVerifyRequest.safeParse(await readSmallBody(request));
    if (!body.success) throw new DomainError("invalid_request", "Send manifest (the manifest.json text) and signature (manifest.sig)");
    const valid = await verifyCaseManifest(context.db, Buffer.from(body.data.manifest, "utf8"), body.data.signature);
    return apiSuccess({
      valid,
      message: valid ? "This manifest is exactly as Stash exported it." : "This manifest was not signed by Stash as it is: it was changed, or belongs to no case here.",
    } satisfies AnswerBody<typeof CaseVerifyAnswer>);
  });
}

export function loader() {
  return methodNotAllowed("POST, OPTIONS", "Use POST");
}
