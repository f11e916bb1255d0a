import { expect } from "vitest";
import { buildOpenApiDocument } from "../../app/lib/openapi.ts";

type Schema = Record<string, unknown>;
const doc = buildOpenApiDocument("http://test", "0.0.0");

function resolve(schema: Schema): Schema {
  const target = schema.$ref as string | undefined;
  if (!target) return schema;
  return (doc.components.schemas as Record<string, Schema>)[target.replace("#/components/schemas/", "")];
}

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** The subset of JSON Schema the document uses: type, const, enum, required, properties, items, allOf, pattern. */
export function validate(value: unknown, raw: Schema, at = "$"): string[] {
  const schema = resolve(raw);
  const problems: string[] = [];
  if (schema.allOf) for (const part of schema.allOf as Schema[]) problems.push(...validate(value, part, at));
  if ("const" in schema && value !== schema.const) problems.push(`${at}: expected ${JSON.stringify(schema.const)}, got ${JSON.stringify(value)}`);
  if (schema.enum && !(schema.enum as unknown[]).includes(value)) problems.push(`${at}: ${JSON.stringify(value)} not in ${JSON.stringify(schema.enum)}`);
  if (schema.type) {
    const allowed = ([] as string[]).concat(schema.type as string | string[]);
    const actual = typeOf(value);
    if (!allowed.includes(actual) && !(actual === "integer" && allowed.includes("number"))) {
      problems.push(`${at}: expected ${allowed.join("|")}, got ${actual}`);
      return problems;
    }
  }
  if (typeof value === "string" && schema.pattern && !new RegExp(schema.pattern as string).test(value)) {
    problems.push(`${at}: ${JSON.stringify(value)} does not match ${schema.pattern}`);
  }
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    for (const name of (schema.required as string[] | undefined) ?? []) {
      if (!(name in record)) problems.push(`${at}.${name}: required`);
    }
    for (const [name, sub] of Object.entries((schema.properties as Record<string, Schema> | undefined) ?? {})) {
      if (name in record) problems.push(...validate(record[name], sub, `${at}.${name}`));
    }
  }
  if (Array.isArray(value) && schema.items) value.forEach((item, i) => problems.push(...validate(item, schema.items as Schema, `${at}[${i}]`)));
  return problems;
}

/**
 * Checks a script API answer against /api/openapi.json: the status is documented for the
 * operation, the body is JSON matching its schema, CORS is open. Returns the parsed body.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function expectApiResponse(res: Response, method: string, pathWithQuery: string): Promise<any> {
  const path = pathWithQuery.split("?")[0];
  const operation = (doc.paths as Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: Schema }> }> }>>)[path]?.[
    method.toLowerCase()
  ];
  expect(operation, `${method} ${path} is not in the OpenAPI document`).toBeDefined();
  const documented = operation.responses[String(res.status)];
  const text = await res.text();
  expect(documented, `${method} ${path} answered ${res.status}, which the document does not list: ${text}`).toBeDefined();
  expect(res.headers.get("access-control-allow-origin")).toBe("*");
  const schema = documented.content?.["application/json"]?.schema;
  if (!schema) return text;
  expect(res.headers.get("content-type")).toContain("application/json");
  const body = JSON.parse(text);
  expect(validate(body, schema), `${method} ${path} ${res.status}: ${text}`).toEqual([]);
  return body;
}
