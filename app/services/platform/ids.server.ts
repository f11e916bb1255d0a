import { randomBytes, createHash } from "node:crypto";

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
export function newServerId(): string {
  return randomString(12, LOWER36);
}

export function sha256Hex(value: string | Buffer): string {
  return createHash("sha256").update(value).digest("hex");
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a value from a URL or form can be a row id: anything else reads as "not found", never reaches SQL (a 500). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
