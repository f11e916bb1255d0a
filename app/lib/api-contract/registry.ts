/**
 * The script API's contract: every request and answer is a zod schema, and the OpenAPI document,
 * the /docs reference and the tests' answer validation are generated from them
 * (docs/decisions/102). Browser-safe: the /docs page renders from the same schemas.
 */
import { z } from "zod";

/** Schemas that appear by name under components.schemas; everything an operation sends or answers is one of them. */
export const contractSchemas = z.registry<{ id: string; description?: string }>();

/** Registers a schema under its component name and returns it. */
export function named<S extends z.ZodType>(id: string, schema: S, description?: string): S {
  const described = (description ? schema.describe(description) : schema) as S;
  contractSchemas.add(described, { id });
  return described;
}

export type ContentType =
  | "application/json"
  | "multipart/form-data"
  | "application/x-www-form-urlencoded"
  | "text/plain"
  | "application/octet-stream"
  | "application/offset+octet-stream";

export interface ApiAnswer {
  description: string;
  /** The body, by content type; absent for answers without one (204, 304, tus). */
  content?: Partial<Record<ContentType, z.ZodType>>;
}

/**
 * One operation of the script API. Path and query parameters are the fields of a zod object; a
 * field's description comes from `.describe()`, its requiredness from `.optional()`.
 */
export interface ApiOperation {
  method: "get" | "post" | "put" | "patch" | "delete" | "head";
  path: string;
  summary: string;
  /** Authenticated with a script API key (any of the key locations). */
  keyed: boolean;
  /** What /docs says in its Key column when the operation is not keyed: "in URL", "private files"; default "no". */
  access?: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  headers?: z.ZodObject;
  body?: { required?: boolean; content: Partial<Record<ContentType, z.ZodType>> };
  responses: Record<string, ApiAnswer>;
}

export const json = (schema: z.ZodType, description: string): ApiAnswer => ({ description, content: { "application/json": schema } });
export const noBody = (description: string): ApiAnswer => ({ description });

/** An open object's declared fields, without the index signature `looseObject` adds (which would let anything through). */
type Declared<T> = { [K in keyof T as string extends K ? never : K]: T[K] };

/** What a route hands to `apiSuccess`: the answer's declared fields without the envelope apiSuccess adds. */
export type AnswerBody<S extends z.ZodType> = Omit<Declared<z.input<S>>, "success" | "status" | "error">;
