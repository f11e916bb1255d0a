/** Evidence case operations (docs/decisions/079). */
import { z } from "zod";
import { json, named, noBody, type ApiOperation } from "~/lib/api-contract/registry";
import { err, keyedErrors } from "~/lib/api-contract/errors";

const obj = z.looseObject;

export const CaseAnswer = named(
  "CaseSuccess",
  obj({
    success: z.boolean().optional(),
    added: z.int().optional(),
    case: obj({
      id: z.string().optional(),
      number: z.string().optional(),
      title: z.string().optional(),
      notes: z.string().optional(),
      status: z.enum(["open", "closed"]).optional(),
      created_at: z.string().meta({ format: "date-time" }).optional(),
      closed_at: z.string().nullable().optional(),
      files: z.array(obj({})).optional(),
    }).optional(),
  }),
);

export const CaseOpenRequest = named(
  "CaseOpenRequest",
  obj({
    number: z.string().describe("1–40 letters, digits, _, . or -; unique per server"),
    title: z.string().max(200).optional(),
    notes: z.string().max(5000).optional(),
    file_ids: z.array(z.string()).optional(),
  }),
);

export const CaseVerifyRequest = named("CaseVerifyRequest", obj({ manifest: z.string(), signature: z.string() }));
export const CaseVerifyAnswer = named("CaseVerifySuccess", obj({ valid: z.boolean().optional(), message: z.string().optional() }));

const caseNumber = obj({ number: z.string() });

export const CASE_OPERATIONS: ApiOperation[] = [
  {
    method: "post",
    path: "/api/cases",
    summary:
      "Open an evidence case (or answer the one with that number) and file uploads into it; files in an open case are kept whatever the retention rules say and cannot be deleted",
    keyed: true,
    body: { required: true, content: { "application/json": CaseOpenRequest } },
    responses: {
      "201": json(CaseAnswer, "The case, opened now"),
      "200": json(CaseAnswer, "The case that already had this number"),
      ...keyedErrors,
      "400": err("Bad number, title or notes, or a closed case"),
    },
  },
  {
    method: "post",
    path: "/api/cases/verify",
    summary: "Whether an exported case's manifest.json is exactly what Stash signed (no key needed)",
    keyed: false,
    body: { required: true, content: { "application/json": CaseVerifyRequest } },
    responses: { "200": json(CaseVerifyAnswer, "The verdict"), "400": err("manifest or signature missing") },
  },
  {
    method: "get",
    path: "/api/cases/{number}",
    summary: "A case of the key's server and its files",
    keyed: true,
    params: caseNumber,
    responses: { "200": json(CaseAnswer, "The case with files[]"), ...keyedErrors, "404": err("No such case on the key's server") },
  },
  {
    method: "get",
    path: "/api/cases/{number}/export",
    summary: "The case as a zip: files/, manifest.json (names, SHA-256, upload time and key, who filed each and when, metadata) and manifest.sig",
    keyed: true,
    params: caseNumber,
    responses: { "200": noBody("application/zip"), ...keyedErrors, "404": err("No such case on the key's server") },
  },
  {
    method: "post",
    path: "/api/cases/{number}/{action}",
    summary: "files {file_ids} adds files (upload permission); close and reopen (delete permission) decide whether its files may be deleted",
    keyed: true,
    params: obj({ number: z.string(), action: z.enum(["files", "close", "reopen"]) }),
    responses: { "200": json(CaseAnswer, "The case"), ...keyedErrors, "400": err("No file_ids, or a closed case"), "404": err("No such case on the key's server") },
  },
];
