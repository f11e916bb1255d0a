import net from "node:net";
import { DomainError } from "~/services/platform/domain-error.server";

/** What a key may do beyond its permissions; null fields are unlimited. */
export interface KeyScopes {
  /** Category slugs, or a prefix ending in `*` (`phone_*`). */
  categories: string[] | null;
  maxFileBytes: number | null;
  /** IPs or CIDR ranges (`203.0.113.7`, `10.0.0.0/8`, `2001:db8::/32`). */
  addresses: string[] | null;
}

const MAX_SCOPE_ENTRIES = 20;
const CATEGORY_PATTERN = /^[a-z0-9_-]{1,40}\*?$|^\*$/;
const MB = 1024 * 1024;

function entries(value: string | string[] | null | undefined, fold: (entry: string) => string = (entry) => entry): string[] {
  const list = Array.isArray(value) ? value : (value ?? "").split(/[\s,]+/);
  return [...new Set(list.map((entry) => fold(entry.trim())).filter(Boolean))];
}

function tooMany(what: string): DomainError {
  return new DomainError("invalid_request", `At most ${MAX_SCOPE_ENTRIES} ${what} per key`);
}

/** Categories a key may write, from a list or comma/space separated text; null (any) when empty. */
export function parseCategoryScope(value: string | string[] | null | undefined): string[] | null {
  const list = entries(value, (entry) => entry.toLowerCase());
  if (list.length === 0) return null;
  if (list.length > MAX_SCOPE_ENTRIES) throw tooMany("categories");
  const bad = list.find((entry) => !CATEGORY_PATTERN.test(entry));
  if (bad) throw new DomainError("invalid_request", `"${bad}" is not a category: use lower-case letters, digits, _ or -, with an optional * at the end`, { field: "categories" });
  return list;
}

function parseAddress(entry: string): { address: string; prefix: number; family: "ipv4" | "ipv6" } | null {
  const [address, bits, extra] = entry.split("/");
  if (extra !== undefined || !address) return null;
  const version = net.isIP(address);
  if (!version) return null;
  const max = version === 4 ? 32 : 128;
  const prefix = bits === undefined ? max : /^\d{1,3}$/.test(bits) ? Number(bits) : NaN;
  if (!(prefix >= 0 && prefix <= max)) return null;
  return { address, prefix, family: version === 4 ? "ipv4" : "ipv6" };
}

/** Client addresses a key may be used from, from a list or separated text; null (anywhere) when empty. */
export function parseAddressScope(value: string | string[] | null | undefined): string[] | null {
  const list = entries(value);
  if (list.length === 0) return null;
  if (list.length > MAX_SCOPE_ENTRIES) throw tooMany("addresses");
  const bad = list.find((entry) => !parseAddress(entry));
  if (bad) throw new DomainError("invalid_request", `"${bad}" is not an IP address or CIDR range (e.g. 203.0.113.7 or 10.0.0.0/8)`, { field: "allowed_ips" });
  return list;
}

export interface KeyScopeInput {
  categories?: string | string[] | null;
  max_file_mb?: number | string | null;
  allowed_ips?: string | string[] | null;
}

/** The limits a create or update names, checked (absent ones untouched; null or empty lifts a limit). */
export function parseKeyScopes(input: KeyScopeInput): Partial<KeyScopes> {
  const scopes: Partial<KeyScopes> = {};
  if (input.categories !== undefined) scopes.categories = parseCategoryScope(input.categories);
  if (input.max_file_mb !== undefined) scopes.maxFileBytes = parseMaxFileMb(input.max_file_mb);
  if (input.allowed_ips !== undefined) scopes.addresses = parseAddressScope(input.allowed_ips);
  return scopes;
}

/** A key's own size limit in MB (whole or decimal, up to 10 GB); null when not set. */
export function parseMaxFileMb(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined || value === "") return null;
  const mb = typeof value === "number" ? value : Number(String(value).trim());
  if (!Number.isFinite(mb) || mb <= 0 || mb > 10_240) throw new DomainError("invalid_request", "The key's file size limit must be between 0 and 10240 MB", { field: "max_file_mb" });
  return Math.round(mb * MB);
}

function categoryInScope(scopes: KeyScopes, category: string): boolean {
  if (!scopes.categories) return true;
  return scopes.categories.some((pattern) => (pattern.endsWith("*") ? category.startsWith(pattern.slice(0, -1)) : category === pattern));
}

export function addressInScope(scopes: KeyScopes, ip: string): boolean {
  if (!scopes.addresses) return true;
  // Node reports IPv4 clients of a dual-stack socket as IPv4-mapped IPv6.
  const client = ip.startsWith("::ffff:") && net.isIPv4(ip.slice(7)) ? ip.slice(7) : ip;
  const family = net.isIPv4(client) ? "ipv4" : net.isIPv6(client) ? "ipv6" : null;
  if (!family) return false;
  const allowed = new net.BlockList();
  for (const entry of scopes.addresses) {
    const range = parseAddress(entry);
    if (range) allowed.addSubnet(range.address, range.prefix, range.family);
  }
  return allowed.check(client, family);
}

/** 403 for a category outside the key's scope, naming the scope it lacks. */
export function assertCategoryInScope(scopes: KeyScopes, category: string): void {
  if (categoryInScope(scopes, category)) return;
  throw new DomainError("permission_denied", `This API key may not upload to category ${category}`, { scope: "categories", allowed: scopes.categories });
}

/** 403 for a client address outside the key's scope. */
export function assertAddressInScope(scopes: KeyScopes, ip: string): void {
  if (addressInScope(scopes, ip)) return;
  throw new DomainError("permission_denied", "This API key may not be used from this address", { scope: "allowed_ips", ip });
}
