/**
 * The OpenAPI 3.1 document served at /api/openapi.json, generated from the contract's zod schemas
 * with zod's own JSON Schema output (draft 2020-12, the dialect OpenAPI 3.1 uses). Tests validate
 * every answer they get against it, so it stays true.
 */
import { z } from "zod";
import { contractSchemas, type ApiAnswer, type ApiOperation, type ContentType } from "~/lib/api-contract/registry";
import { API_OPERATIONS } from "~/lib/api-contract/operations";

type JsonSchema = Record<string, unknown>;

const componentRef = (id: string) => `#/components/schemas/${id}`;

/** Drops what zod emits that says nothing to a reader: the dialect marker, open-object markers, JavaScript's safe-integer bounds. */
function tidy(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(tidy);
  if (!schema || typeof schema !== "object") return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "$schema" || key === "$id") continue;
    if (key === "additionalProperties" && value && typeof value === "object" && Object.keys(value).length === 0) continue;
    if (key === "propertyNames") continue;
    if ((key === "minimum" || key === "maximum") && Math.abs(value as number) === Number.MAX_SAFE_INTEGER) continue;
    out[key] = tidy(value);
  }
  if (out.type === "object" && out.properties && Object.keys(out.properties as JsonSchema).length === 0) delete out.properties;
  return out;
}

function schemaOf(schema: z.ZodType): JsonSchema {
  const id = contractSchemas.get(schema)?.id;
  if (id) return { $ref: componentRef(id) };
  return tidy(z.toJSONSchema(schema, { unrepresentable: "any" })) as JsonSchema;
}

function content(byType: Partial<Record<ContentType, z.ZodType>>) {
  return Object.fromEntries(Object.entries(byType).map(([type, schema]) => [type, { schema: schemaOf(schema as z.ZodType) }]));
}

/** The fields of an object schema as reference tables show them: name, requiredness, description (read without converting, so a page render stays cheap). */
export function fieldsOf(fields: z.ZodObject | undefined) {
  return Object.entries(fields?.shape ?? {}).map(([name, field]) => {
    const schema = field as z.ZodType;
    const inner = schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema;
    return { name, required: !schema.safeParse(undefined).success, description: schema.description ?? inner.description, schema };
  });
}

function parameters(location: "path" | "query" | "header", fields: z.ZodObject | undefined) {
  return fieldsOf(fields).map(({ name, required, schema: field }) => {
    const { description, ...schema } = schemaOf(field);
    return { name, in: location, required: location === "path" || required, ...(description ? { description } : {}), schema };
  });
}

function answer({ description, content: body }: ApiAnswer) {
  return body ? { description, content: content(body) } : { description };
}

const KEY_LOCATIONS = ["ApiKeyHeader", "BearerKey", "ApiKeyQuery", "ApiKeyQueryApi", "ApiKeyQueryKey", "ApiKeyQueryToken"].map((name) => ({ [name]: [] }));

function operationObject(op: ApiOperation) {
  const params = [...parameters("path", op.params), ...parameters("query", op.query), ...parameters("header", op.headers)];
  return {
    summary: op.summary,
    ...(op.keyed ? { security: KEY_LOCATIONS } : {}),
    ...(params.length ? { parameters: params } : {}),
    ...(op.body ? { requestBody: { ...(op.body.required === undefined ? {} : { required: op.body.required }), content: content(op.body.content) } } : {}),
    responses: Object.fromEntries(Object.entries(op.responses).map(([status, a]) => [status, answer(a)])),
  };
}

/** A value worked out on first use and kept: the contract is fixed once its modules load. */
function once<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

/** The part of the document that depends on the contract only; converting the schemas costs milliseconds, so it is done once. */
const contractDocument = once(() => {
  const paths: Record<string, Record<string, ReturnType<typeof operationObject>>> = {};
  for (const op of API_OPERATIONS) (paths[op.path] ??= {})[op.method] = operationObject(op);
  return { paths, schemas: tidy(z.toJSONSchema(contractSchemas, { uri: componentRef, unrepresentable: "any" }).schemas) as Record<string, JsonSchema> };
});

export function buildOpenApiDocument(serverUrl: string, version: string) {
  const { paths, schemas } = contractDocument();
  return {
    openapi: "3.1.0",
    info: {
      title: "Stash script API",
      version,
      description:
        "Uploads, search and downloads for game-server scripts. Send the API key as x-api-key, Authorization: Bearer <key>, " +
        "Authorization: <key>, Authorization: Key <key>, or in the query as ?apiKey=, ?api_key=, ?api=, ?key= or ?token=. Every answer is JSON (files excepted); errors carry " +
        "success=false, status=error, error, message and a machine-readable code. CORS is open to any origin.",
    },
    servers: [{ url: serverUrl }],
    components: {
      schemas,
      securitySchemes: {
        ApiKeyHeader: { type: "apiKey", in: "header", name: "x-api-key" },
        BearerKey: { type: "http", scheme: "bearer" },
        ApiKeyQuery: { type: "apiKey", in: "query", name: "apiKey", description: "Also api_key" },
        ApiKeyQueryApi: { type: "apiKey", in: "query", name: "api", description: "LB Phone's custom-upload URL template" },
        ApiKeyQueryKey: { type: "apiKey", in: "query", name: "key" },
        ApiKeyQueryToken: { type: "apiKey", in: "query", name: "token" },
      },
    },
    paths,
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
