import { describe, expect, it } from "vitest";
import routes from "~/routes";
import { API_OPERATIONS } from "~/lib/api-contract/operations";

type Entry = { path?: string; file: string; children?: Entry[] };

/** A path with its parameters blanked, so `/api/files/:id` and `/api/files/{id}` compare equal; an optional last segment gives both paths. */
function shapes(path: string): string[] {
  const full = `/${path}`.replace(/\/+/g, "/");
  const blank = (p: string) => p.replace(/:\w+\??|\{\w+\}/g, "{}");
  const optional = full.match(/^(.*)\/:\w+\?$/);
  return optional ? [blank(optional[1]), blank(full)] : [blank(full)];
}

function scriptRoutes(entries: Entry[]): Entry[] {
  return entries.flatMap((entry) => [...(entry.file.startsWith("routes/api/script/") ? [entry] : []), ...scriptRoutes(entry.children ?? [])]);
}

describe("the script API's routes and its contract", () => {
  it("describe the same paths: every route under routes/api/script has its operations in app/lib/api-contract", () => {
    const contract = new Set(API_OPERATIONS.flatMap((op) => shapes(op.path)));
    const declared = scriptRoutes(routes as Entry[]).flatMap((entry) => shapes(entry.path ?? ""));
    expect(declared.length).toBeGreaterThan(20);
    expect(declared.filter((shape) => !contract.has(shape))).toEqual([]);
  });
});
