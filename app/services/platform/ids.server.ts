import { randomBytes, createHash } from "node:crypto";
import type { ApiKeyId, CaseId, FileId, ImportId, ServerId, TeamId, UserId } from "~/lib/ids";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const LOWER36 = "0123456789abcdefghijklmnopqrstuvwxyz";

/** Unbiased random string over `alphabet` (rejection sampling). */
export function randomString(length: number, alphabet: string = BASE62): string {
  const limit = 256 - (256 % alphabet.length);
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < limit) out += alphabet[byte % alphabet.length];
      if (out.length === length) break;
    }
  }
  return out;
}

/** Server ids appear in file URLs: short, lowercase, unambiguous in a path. */
export function newServerId(): ServerId {
  return randomString(12, LOWER36) as ServerId;
}

export function sha256Hex(value: string | Buffer): string {
  return createHash("sha256").update(value).digest("hex");
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a value from a URL or form can be a row id: anything else reads as "not found", never reaches SQL (a 500). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

type UuidId = UserId | TeamId | FileId | ApiKeyId | CaseId | ImportId;

/**
 * A row id a URL or a form carries, typed as the id it names (`parseId<FileId>(params.id)`), or
 * undefined for anything that cannot be one: the caller answers "not found", never a 500 from SQL.
 * Which table the id is looked up in still decides what it opens; the type only keeps a person's id
 * from being used as a team's.
 */
export function parseId<Id extends UuidId>(value: unknown): Id | undefined {
  return typeof value === "string" && isUuid(value) ? (value as Id) : undefined;
}

/** The ids among several values (a form's repeated `id` fields), each once, in order. */
export function parseIds<Id extends UuidId>(values: readonly unknown[]): Id[] {
  return [...new Set(values.map((value) => parseId<Id>(value)).filter((id): id is Id => id !== undefined))];
}

/** New servers get 12 lowercase characters; older ids and tests may be longer or mixed-case. */
const SERVER_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** A server id from a URL, a form or a script's `server_id`; undefined for anything else. */
export function parseServerId(value: unknown): ServerId | undefined {
  return typeof value === "string" && SERVER_ID.test(value) ? (value as ServerId) : undefined;
}
