import { describe, expect, it } from "vitest";
import { z } from "zod";
import { buildOpenApiDocument, fieldsOf } from "~/lib/api-contract/openapi";
import { API_OPERATIONS } from "~/lib/api-contract/operations";
import { ERROR_CODES } from "~/lib/error-codes";

const doc = buildOpenApiDocument("https://cdn.example.gg", "1.2.3");
type Json = Record<string, unknown>;

function refsIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((item) => refsIn(item, found));
  else if (value && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) {
      if (key === "$ref") found.push(inner as string);
      else refsIn(inner, found);
    }
  }
  return found;
}

describe("the OpenAPI document generated from the contract", () => {
  it("lists every operation once, under its path and method", () => {
    for (const op of API_OPERATIONS) expect(doc.paths[op.path]?.[op.method]?.summary, `${op.method} ${op.path}`).toBe(op.summary);
    const count = Object.values(doc.paths).reduce((n, methods) => n + Object.keys(methods).length, 0);
    expect(count).toBe(API_OPERATIONS.length);
    expect(new Set(API_OPERATIONS.map((op) => `${op.method} ${op.path}`)).size).toBe(API_OPERATIONS.length);
  });

  it("resolves every reference to a component, and leaves no JSON Schema dialect markers inside", () => {
    const components = doc.components.schemas;
    for (const ref of refsIn(doc)) expect(components[ref.replace("#/components/schemas/", "")], ref).toBeDefined();
    expect(JSON.stringify(doc)).not.toMatch(/"\$schema"|"\$id"|9007199254740991/);
  });

  it("names every error code of the catalogue in Error.code", () => {
    const error = doc.components.schemas.Error as { properties: { code: { enum: string[] } }; required: string[] };
    expect(error.properties.code.enum).toEqual([...ERROR_CODES]);
    expect(error.required).toEqual(["success", "status", "error", "message", "code"]);
  });

  it("puts the key on keyed operations only, and the server the document was built for", () => {
    expect(doc.servers).toEqual([{ url: "https://cdn.example.gg" }]);
    expect(doc.info.version).toBe("1.2.3");
    expect(doc.paths["/api/search"].get.security).toHaveLength(6);
    expect(doc.paths["/api/health"].get).not.toHaveProperty("security");
  });

  it("derives parameters from object schemas: path always required, others unless optional, descriptions lifted out", () => {
    const signed = doc.paths["/api/files/{id}/signed-url"].get as unknown as { parameters: Json[] };
    expect(signed.parameters).toEqual([
      { name: "id", in: "path", required: true, schema: { type: "string" } },
      {
        name: "expires_in",
        in: "query",
        required: false,
        description: "Seconds, 60 to 604800 (7 days); default 3600",
        schema: { type: "integer", minimum: 60, maximum: 604800 },
      },
    ]);
    expect(fieldsOf(z.looseObject({ a: z.string(), b: z.int().optional() })).map((f) => [f.name, f.required])).toEqual([
      ["a", true],
      ["b", false],
    ]);
  });

  it("refers to named answers and gives every body-less answer only a description", () => {
    const upload = doc.paths["/api/upload"].post as unknown as { responses: Record<string, Json> };
    expect(upload.responses["201"]).toEqual({
      description: "Stored; every file of the request is in files[]",
      content: { "application/json": { schema: { $ref: "#/components/schemas/UploadSuccess" } } },
    });
    expect(upload.responses["415"]).toMatchObject({ content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } });
    expect((doc.paths["/api/download"].get as unknown as { responses: Record<string, Json> }).responses["304"]).toEqual({ description: "Not modified (If-None-Match)" });
  });
});
