/** Every operation of the script API, in the order the document lists them. */
import { json, noBody, type ApiOperation } from "~/lib/api-contract/registry";
import { Health } from "~/lib/api-contract/schemas";
import { REPORT_OPERATIONS } from "~/lib/api-contract/reports";
import { UPLOAD_OPERATIONS } from "~/lib/api-contract/uploads";
import { FILE_OPERATIONS } from "~/lib/api-contract/files";
import { CASE_OPERATIONS } from "~/lib/api-contract/cases";
import { LOG_OPERATIONS } from "~/lib/api-contract/logs";
import { IMPORT_OPERATIONS } from "~/lib/api-contract/imports";

const SERVICE_OPERATIONS: ApiOperation[] = [
  {
    method: "get",
    path: "/api/health",
    summary: "Liveness and dependencies",
    keyed: false,
    responses: { "200": json(Health, "Healthy"), "503": json(Health, "Degraded") },
  },
  { method: "get", path: "/api/openapi.json", summary: "This document", keyed: false, responses: { "200": noBody("OpenAPI 3.1 document") } },
];

export const API_OPERATIONS: ApiOperation[] = [...UPLOAD_OPERATIONS, ...FILE_OPERATIONS, ...CASE_OPERATIONS, ...LOG_OPERATIONS, ...IMPORT_OPERATIONS, ...REPORT_OPERATIONS, ...SERVICE_OPERATIONS];

/** Looks an operation up by method and OpenAPI path. */
export function apiOperation(method: ApiOperation["method"], path: string): ApiOperation {
  const op = API_OPERATIONS.find((o) => o.method === method && o.path === path);
  if (!op) throw new Error(`No ${method.toUpperCase()} ${path} in the script API contract`);
  return op;
}

