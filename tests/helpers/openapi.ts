import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { expect } from "vitest";
import { buildOpenApiDocument } from "../../app/lib/api-contract/openapi.ts";

type Schema = Record<string, unknown>;
type Operation = { responses: Record<string, { content?: Record<string, { schema: Schema }> }> };

/** The document the server serves, generated from the contract's zod schemas (docs/decisions/102). */
const doc = buildOpenApiDocument("http://test", "0.0.0");

// A full JSON Schema 2020-12 validator over the document's components, with formats (uri, date-time, uuid) checked.
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats.default(ajv);
ajv.addFormat("binary", true);
ajv.addSchema({ $id: "openapi", components: doc.components });

/** A component is compiled as a reference into the document, so its own references resolve there too. */
function validatorFor(schema: Schema) {
  return ajv.compile(typeof schema.$ref === "string" ? { $ref: `openapi${schema.$ref}` } : schema);
}

/**
 * Checks a script API answer against /api/openapi.json: the status is documented for the
 * operation, the body is JSON matching its schema, CORS is open. Returns the parsed body.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function expectApiResponse(res: Response, method: string, pathWithQuery: string): Promise<any> {
  const path = pathWithQuery.split("?")[0];
  const operation = (doc.paths as Record<string, Record<string, Operation>>)[path]?.[method.toLowerCase()];
  expect(operation, `${method} ${path} is not in the OpenAPI document`).toBeDefined();
  const documented = operation.responses[String(res.status)];
  const text = await res.text();
  expect(documented, `${method} ${path} answered ${res.status}, which the document does not list: ${text}`).toBeDefined();
  expect(res.headers.get("access-control-allow-origin")).toBe("*");
  const schema = documented.content?.["application/json"]?.schema;
  if (!schema) return text;
  expect(res.headers.get("content-type")).toContain("application/json");
  const body = JSON.parse(text);
  const validate = validatorFor(schema);
  validate(body);
  expect(validate.errors ?? [], `${method} ${path} ${res.status}: ${text}`).toEqual([]);
  return body;
}
