import net from "node:net";
import { DomainError } from "~/services/platform/domain-error.server";
import { blockedAddressReason } from "~/services/platform/outbound-fetch.server";
import type { ImportItemInput } from "~/services/imports/import-items.server";
import { isDiscordCdnHost, parseDiscordAttachmentUrl } from "~/services/imports/discord-urls.server";

/** URLs one list may carry (a game database's worth; the FiveM scan posts in batches). */
export const MAX_URLS_PER_IMPORT = 100_000;
/** How many refused lines an error names; the rest are counted. */
const LISTED_REFUSALS = 20;

/**
 * Hosts a list of URLs may name without the owner naming them: Discord's CDN, where the dead links are,
 * and Fivemanage's, the host servers most often leave. Any other host must be named by the import
 * (`hosts`), so a pasted list never makes Stash fetch from somewhere nobody chose.
 */
export function knownSourceHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return isDiscordCdnHost(host) || host === "fivemanage.com" || host.endsWith(".fivemanage.com");
}

/** Host names an owner names for their own former host: plain names, no ports or paths. */
export function parseHostList(value: unknown): string[] {
  const raw = Array.isArray(value) ? value : typeof value === "string" ? value.split(/[\s,]+/) : [];
  const hosts = new Set<string>();
  for (const entry of raw) {
    const host = String(entry).trim().toLowerCase().replace(/\.$/, "");
    if (!host) continue;
    if (!/^[a-z0-9.-]+$/.test(host) || !host.includes(".")) throw new DomainError("invalid_request", `${String(entry)} is not a host name (e.g. i.example.com)`, { field: "hosts" });
    hosts.add(host);
  }
  return [...hosts];
}

export interface RefusedLine {
  line: number;
  url: string;
  reason: string;
}

export interface ParsedUrlList {
  items: ImportItemInput[];
  /** Lines that were the same attachment or URL as an earlier one. */
  repeated: number;
}

function lastSegment(url: URL): string | null {
  const segment = url.pathname.split("/").pop() || "";
  try {
    return decodeURIComponent(segment) || null;
  } catch {
    return segment || null;
  }
}

/** Why a URL is not fetched from, or null when it may be. */
export function urlRefusal(url: URL, hosts: readonly string[], allowPrivateNetworks: boolean): string | null {
  if (url.protocol !== "https:" && url.protocol !== "http:") return "only http and https URLs are fetched";
  if (url.username || url.password) return "URLs with a user name or password are not fetched";
  const literal = url.hostname.replace(/^\[|\]$/g, "");
  if (net.isIP(literal)) {
    const reason = blockedAddressReason(literal);
    if (reason && !allowPrivateNetworks) return `${literal} is a ${reason} address, which Stash does not fetch from`;
    return hosts.includes(literal) ? null : `${literal} is not a host of this import (name it under hosts)`;
  }
  if (knownSourceHost(url.hostname) || hosts.includes(url.hostname.toLowerCase())) return null;
  return `${url.hostname} is not a host of this import (Discord's CDN, Fivemanage, or a host you name under hosts)`;
}

/**
 * A pasted or uploaded list: one URL per line (or separated by spaces or commas), blank lines and
 * `#` comments skipped. Discord links are keyed by attachment (their `ex`/`is`/`hm` dropped), others by
 * URL; repeats are dropped. Any refused line refuses the whole list, naming the lines, so nothing is
 * half-imported.
 */
export function parseUrlList(input: unknown, options: { hosts?: readonly string[]; allowPrivateNetworks: boolean }): ParsedUrlList {
  const lines: string[] = Array.isArray(input) ? input.map((v) => String(v)) : typeof input === "string" ? input.split(/\r?\n/) : [];
  const hosts = options.hosts ?? [];
  const seen = new Set<string>();
  const items: ImportItemInput[] = [];
  const refused: RefusedLine[] = [];
  let repeated = 0;
  lines.forEach((text, index) => {
    for (const token of text.replace(/#.*$/, "").split(/[\s,]+/)) {
      if (!token) continue;
      let url: URL;
      try {
        url = new URL(token);
      } catch {
        refused.push({ line: index + 1, url: token, reason: "not a URL" });
        continue;
      }
      const reason = urlRefusal(url, hosts, options.allowPrivateNetworks);
      if (reason) {
        refused.push({ line: index + 1, url: token, reason });
        continue;
      }
      const discord = parseDiscordAttachmentUrl(url);
      const key = discord ? `dc:${discord.channelId}/${discord.attachmentId}` : url.toString();
      if (seen.has(key)) {
        repeated++;
        continue;
      }
      seen.add(key);
      items.push(
        discord
          ? { ref: token, filename: discord.filename, channelId: discord.channelId, attachmentId: discord.attachmentId }
          : { ref: url.toString(), filename: lastSegment(url) },
      );
    }
  });
  if (refused.length) {
    const listed = refused.slice(0, LISTED_REFUSALS).map((r) => `line ${r.line}: ${r.reason}`);
    const more = refused.length > LISTED_REFUSALS ? ` (and ${refused.length - LISTED_REFUSALS} more)` : "";
    throw new DomainError("url_not_allowed", `${refused.length} URL${refused.length === 1 ? " was" : "s were"} refused, so nothing was imported: ${listed.join("; ")}${more}`, {
      refused: refused.slice(0, LISTED_REFUSALS),
      refused_count: refused.length,
    });
  }
  if (items.length === 0) throw new DomainError("invalid_request", "The list has no URLs", { field: "urls" });
  if (items.length > MAX_URLS_PER_IMPORT) throw new DomainError("invalid_request", `At most ${MAX_URLS_PER_IMPORT} URLs per import`, { field: "urls" });
  return { items, repeated };
}
