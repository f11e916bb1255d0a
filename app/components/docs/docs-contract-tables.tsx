/** The /docs reference tables, generated from the script API's contract (docs/decisions/102), so the page and /api/openapi.json cannot disagree. */
import { fieldsOf } from "~/lib/api-contract/openapi";
import { API_OPERATIONS } from "~/lib/api-contract/operations";
import type { ApiOperation } from "~/lib/api-contract/registry";
import { C, Table } from "~/components/docs/doc-parts";
import type { z } from "zod";

/** `/f/{server_id}/{category}/{filename}` as the docs write placeholders: `/f/SERVER_ID/CATEGORY/FILENAME`. */
function docsPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => name.toUpperCase());
}

function keyColumn(op: ApiOperation): string {
  return op.keyed ? "yes" : (op.access ?? "no");
}

/** One row per operation (a HEAD shares its GET's row): the method, the path, who needs a key, what it does. */
export function EndpointsTable() {
  const hasGet = (path: string) => API_OPERATIONS.some((op) => op.method === "get" && op.path === path);
  const rows = API_OPERATIONS.filter((op) => !(op.method === "head" && hasGet(op.path))).map((op) => {
    const methods = op.method === "get" && API_OPERATIONS.some((o) => o.method === "head" && o.path === op.path) ? "GET · HEAD" : op.method.toUpperCase();
    return [methods, <C key="p">{docsPath(op.path)}</C>, keyColumn(op), op.summary];
  });
  return <Table caption="Script API endpoints" head={["Method", "Path", "Key", "Purpose"]} rows={rows} />;
}

/** The fields of a request schema (a body's fields, a query's parameters) with their descriptions. */
export function FieldsTable({ caption, head, fields }: { caption: string; head: [string, string]; fields: z.ZodObject }) {
  return <Table caption={caption} head={head} rows={fieldsOf(fields).map((field) => [<C key="f">{field.name}</C>, field.description ?? ""])} />;
}

/** The log doors: each endpoint, the shape it takes and the answers it gives on success. */
export function LogEndpointsTable({ operations }: { operations: ApiOperation[] }) {
  return (
    <Table
      caption="Log endpoints"
      head={["Endpoint", "Shape", "Answer"]}
      rows={operations.map((op) => [
        <C key="e">{`${op.method.toUpperCase()} ${docsPath(op.path)}`}</C>,
        op.summary,
        Object.keys(op.responses)
          .filter((status) => status.startsWith("2"))
          .join(", "),
      ])}
    />
  );
}
