/** Abuse reports (docs/decisions/074): anyone may report a hosted file, no account or key needed. */
import { z } from "zod";
import { REPORT_DETAILS_MAX, REPORT_REASONS } from "~/lib/report-reasons";
import { json, named, type ApiOperation } from "~/lib/api-contract/registry";
import { err } from "~/lib/api-contract/errors";

const obj = z.looseObject;

export const ReportRequest = named(
  "ReportRequest",
  obj({
    url: z.string().describe("The address of the hosted file (its /f/ link)"),
    reason: z.enum(Object.keys(REPORT_REASONS) as [keyof typeof REPORT_REASONS, ...(keyof typeof REPORT_REASONS)[]]),
    details: z.string().max(REPORT_DETAILS_MAX).optional(),
    contact: z.string().describe("An e-mail address for a reply").optional(),
  }),
);

export const ReportAnswer = named("ReportSuccess", obj({ id: z.string(), message: z.string() }));

export const REPORT_OPERATIONS: ApiOperation[] = [
  {
    method: "post",
    path: "/api/reports",
    summary: "Report a hosted file to the administrators; 10 reports an hour per address",
    keyed: false,
    body: { required: true, content: { "application/json": ReportRequest } },
    responses: {
      "201": json(ReportAnswer, "Reported"),
      "400": err("Not the address of a file hosted here, an unknown reason, details over 2,000 characters or a bad contact address (field names which)"),
      "404": err("The URL is not a file hosted here"),
      "429": err("More than 10 reports an hour from this address"),
      "500": err("Server error"),
      "503": err("The database is unavailable; retry after Retry-After seconds"),
    },
  },
];
