import { apiSuccess, methodNotAllowed } from "~/http/api-response.server";
import { runApi } from "~/http/api-route.server";
import { readSmallBody } from "~/http/small-body.server";
import { createFileReport } from "~/services/files/file-reports.server";
import { consumeReportBudget } from "~/services/files/report-limits.server";
import type { Route } from "./+types/reports";
import type { AnswerBody } from "~/lib/api-contract/registry";
import type { ReportAnswer } from "~/lib/api-contract/reports";

/** POST /api/reports: report a hosted file ({url, reason, details?, contact?}); no account needed, limited per address. */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST, OPTIONS", "Use POST");
  return runApi(context, async () => {
    const body = await readSmallBody(request);
    await consumeReportBudget(context.rateLimits, context.clientIp);
    const report = await createFileReport(context.db, { url: body.url, reason: body.reason, details: body.details, contact: body.contact, ip: context.clientIp });
    return apiSuccess({ id: report.id, message: "Thank you. An administrator will review this file." } satisfies AnswerBody<typeof ReportAnswer>, { status: 201 });
  });
}

export function loader() {
  return methodNotAllowed("POST, OPTIONS", "Use POST");
}
