import dns from "node:dns";
import type { LookupAddress, LookupOptions } from "node:dns";
import net from "node:net";
import ipaddr from "ipaddr.js";
import { Agent, fetch as undiciFetch } from "undici";
import { DomainError } from "~/services/platform/domain-error.server";

/**
 * Every request Stash makes on a user's behalf — an import fetching a file, a webhook delivery — goes
 * through here (DESIGN.md "Security rules", docs/decisions/108): only to the hosts the feature names, each
 * redirect hop checked again, and never to a loopback, private, link-local, shared or metadata address
 * unless the operator allows private networks (self-hosting next to the receiver). Addresses are checked
 * on what a name resolves to, inside the connection's own lookup, so a name that answers a public address
 * to a check and a private one to the connection (DNS rebinding) is still refused.
 */
export interface OutboundFetch {
  fetch(url: string | URL, request?: OutboundRequest): Promise<OutboundResponse>;
  close(): Promise<void>;
}

export interface OutboundRequest {
  method?: string;
  headers?: Record<string, string>;
  /** Resent on a 307/308 redirect, so only bodies held in memory. */
  body?: string | Uint8Array;
  signal?: AbortSignal;
  /** Whole request, redirects included; default 30 s. */
  timeoutMs?: number;
  /** Where this feature may go, asked again on every redirect hop; default any host. */
  allowHost?: (url: URL) => boolean;
  /** Default 5; a sixth hop is refused. */
  maxRedirects?: number;
}

export type OutboundResponse = Awaited<ReturnType<typeof undiciFetch>>;

export interface OutboundFetchOptions {
  /** OUTBOUND_ALLOW_PRIVATE_NETWORKS: the operator lets user-given URLs reach private and loopback addresses. */
  allowPrivateNetworks: boolean;
  /**
   * Origins the operator configured (DISCORD_API_BASE and the like): they may be on a private network
   * because the operator, not a user, named them. Compared as `protocol//host:port`.
   */
  trustedOrigins?: readonly string[];
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_REDIRECTS = 5;

/**
 * Why an address may not be fetched, or null when it is an ordinary public unicast address. IPv4 inside
 * IPv6 (mapped, 6to4, Teredo, NAT64) is judged as what it carries or refused, never waved through.
 */
export function blockedAddressReason(address: string): string | null {
  if (!ipaddr.isValid(address)) return "not an IP address";
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const range = parsed.range();
  return range === "unicast" ? null : range;
}

/** The origin of a URL as the trusted list spells it, default ports made explicit. */
export function originKey(url: URL): string {
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  return `${url.protocol}//${url.hostname.toLowerCase()}:${port}`;
}

function refused(message: string, url: URL, extra: Record<string, unknown> = {}): DomainError {
  return new DomainError("url_not_allowed", message, { host: url.hostname, ...extra });
}

/** The connection's own name lookup: resolves, then refuses the whole name if any answer is not public. */
function checkedLookup(hostname: string, options: LookupOptions, callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void): void {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const blocked = addresses.find((entry) => blockedAddressReason(entry.address));
    if (blocked) {
      const refusal = new DomainError("url_not_allowed", `${hostname} resolves to ${blocked.address}, a ${blockedAddressReason(blocked.address)} address, which Stash does not fetch from`, {
        host: hostname,
        address: blocked.address,
      }) as DomainError & NodeJS.ErrnoException;
      return callback(refusal, []);
    }
    if (options.all) return callback(null, addresses);
    const first = addresses[0];
    if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), []);
    callback(null, first.address, first.family);
  });
}

/** The DomainError a refused lookup raised, from under the fetch's TypeError and undici's connect error. */
function refusalIn(error: unknown): DomainError | null {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth++) {
    if (current instanceof DomainError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

function withoutCredentials(headers: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!headers) return headers;
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !/^(authorization|cookie|proxy-authorization)$/i.test(name)));
}

export function createOutboundFetch(options: OutboundFetchOptions): OutboundFetch {
  const checked = new Agent({ connect: { lookup: checkedLookup }, connections: 16 });
  const direct = new Agent({ connections: 16 });
  const trusted = new Set(options.trustedOrigins ?? []);

  /** Refuses a hop before any byte is sent: scheme, the feature's hosts, a literal private address. */
  function agentFor(url: URL, request: OutboundRequest): Agent {
    if (url.protocol !== "https:" && url.protocol !== "http:") throw refused(`Only http and https URLs can be fetched, not ${url.protocol}`, url);
    if (url.username || url.password) throw refused("URLs with a user name or password are not fetched", url);
    if (trusted.has(originKey(url))) return direct;
    if (request.allowHost && !request.allowHost(url)) throw refused(`${url.hostname} is not a host this feature fetches from`, url);
    if (options.allowPrivateNetworks) return direct;
    const literal = url.hostname.replace(/^\[|\]$/g, "");
    if (net.isIP(literal)) {
      const reason = blockedAddressReason(literal);
      if (reason) throw refused(`${literal} is a ${reason} address, which Stash does not fetch from`, url, { address: literal });
    }
    return checked;
  }

  return {
    async fetch(input, request = {}) {
      const signal = AbortSignal.any([AbortSignal.timeout(request.timeoutMs ?? DEFAULT_TIMEOUT_MS), ...(request.signal ? [request.signal] : [])]);
      let url = new URL(input);
      let method = (request.method ?? "GET").toUpperCase();
      let body = request.body;
      let headers = request.headers;
      const maxRedirects = request.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
      for (let hop = 0; ; hop++) {
        const dispatcher = agentFor(url, request);
        let response: OutboundResponse;
        try {
          response = await undiciFetch(url, { method, headers, body, signal, redirect: "manual", dispatcher });
        } catch (error) {
          throw refusalIn(error) ?? error;
        }
        const location = response.headers.get("location");
        if (!REDIRECTS.has(response.status) || !location) return response;
        await response.body?.cancel();
        if (hop >= maxRedirects) throw refused(`More than ${maxRedirects} redirects`, url);
        const next = new URL(location, url);
        // A credential meant for one origin (a bot token) never follows a redirect to another.
        if (next.origin !== url.origin) headers = withoutCredentials(headers);
        url = next;
        if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === "POST")) {
          method = method === "HEAD" ? "HEAD" : "GET";
          body = undefined;
        }
      }
    },
    async close() {
      await Promise.all([checked.close(), direct.close()]);
    },
  };
}
