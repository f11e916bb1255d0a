/**
 * Distinct id types for the rows that own or name things. Each is a string (a uuid, or a server's
 * short id) at run time; the brand exists only for the compiler, so a person's id can never be passed
 * where a team's id is expected (a personal team's id once equalled its owner's, which hid every such
 * confusion). Ids come from database rows, or from `parseId` (services/platform/ids.server.ts) for
 * values a URL or a form carries.
 */
declare const brand: unique symbol;
type Branded<Name extends string> = string & { readonly [brand]: Name };

export type UserId = Branded<"UserId">;
export type TeamId = Branded<"TeamId">;
export type ServerId = Branded<"ServerId">;
export type FileId = Branded<"FileId">;
export type ApiKeyId = Branded<"ApiKeyId">;
export type CaseId = Branded<"CaseId">;
export type ImportId = Branded<"ImportId">;
