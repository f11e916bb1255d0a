import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Discord on loopback, speaking the parts imports use: the CDN (`/attachments/{channel}/{attachment}/{name}`,
 * serving only links it signed that have not expired, 404 "This content is no longer available." for
 * the rest and for deleted attachments) and the REST API under `/api/v10`: `POST /attachments/refresh-urls`
 * (1–50 links, fresh signatures, deleted ones left out), `GET /channels/{id}/messages?before=&limit=`
 * (newest first; attachments, content and embeds empty without the Message Content intent, as Discord
 * does), `GET /channels/{id}/messages/{id}`, `GET /applications/@me` (its `flags` carry the intent), a bot
 * token in `Authorization: Bot …` (401 once revoked), a `User-Agent: DiscordBot (…)` required, and 429s
 * with `retry_after` on demand. Links name the real host (cdn.discordapp.com): the app is pointed here
 * with DISCORD_CDN_BASE and DISCORD_API_BASE.
 */

export interface StandInAttachment {
  channelId: string;
  attachmentId: string;
  messageId: string;
  filename: string;
  bytes: Buffer;
  contentType: string;
  author?: string;
  deleted?: boolean;
}

export interface StandInMessage {
  id: string;
  channel_id: string;
  type: number;
  content: string;
  timestamp: string;
  author: { id: string; username: string; global_name: string | null; bot?: boolean };
  attachments: Array<Record<string, unknown>>;
  embeds: Array<Record<string, unknown>>;
  components: unknown[];
}

export interface DiscordStandIn {
  url: string;
  /** DISCORD_API_BASE and DISCORD_CDN_BASE for the app. */
  env: Record<string, string>;
  token: string;
  add(attachment: Omit<StandInAttachment, "contentType"> & { contentType?: string }): void;
  /** A message without attachments (a log embed, chat). */
  addMessage(message: Partial<StandInMessage> & { id: string; channel_id: string }): void;
  delete(attachmentId: string): void;
  /** A link as Discord would hand it out now, or one whose `ex` passed a week ago. */
  link(attachmentId: string, options?: { expired?: boolean; host?: string }): string;
  /** The token stops working (as after a reset in the Developer Portal); false gives it back. */
  revokeToken(revoked?: boolean): void;
  setIntent(enabled: boolean): void;
  /** The next `count` API calls answer 429 with this retry_after. */
  rateLimit(count: number, retryAfterS: number, global?: boolean): void;
  /** CDN requests for this attachment wait until `release` is called. */
  hold(attachmentId: string): { reached: Promise<void>; release(): void };
  /** Sizes of each refresh-urls call. */
  refreshCalls: number[];
  cdnRequests: string[];
  userAgents: Set<string>;
  refreshAvailable: boolean;
  close(): Promise<void>;
}

const SIGNING_KEY = "stand-in-signing-key";
const NO_LONGER_AVAILABLE = "This content is no longer available.";

export async function startDiscordStandIn(token = "MTIz.stand-in.bot-token"): Promise<DiscordStandIn> {
  const attachments = new Map<string, StandInAttachment>();
  const messages = new Map<string, StandInMessage>();
  const holds = new Map<string, { reached: () => void; released: Promise<void> }>();
  let revoked = false;
  let intent = true;
  let limited = { count: 0, retryAfter: 0, global: false };
  const refreshCalls: number[] = [];
  const cdnRequests: string[] = [];
  const userAgents = new Set<string>();

  const sign = (path: string, ex: number) => {
    const exHex = ex.toString(16);
    const isHex = (ex - 86_400).toString(16);
    const hm = createHmac("sha256", SIGNING_KEY).update(`${path}|${exHex}|${isHex}`).digest("hex");
    return `ex=${exHex}&is=${isHex}&hm=${hm}&`;
  };
  const pathOf = (a: StandInAttachment) => `/attachments/${a.channelId}/${a.attachmentId}/${encodeURIComponent(a.filename)}`;
  const link = (attachmentId: string, options: { expired?: boolean; host?: string } = {}) => {
    const a = attachments.get(attachmentId)!;
    const ex = Math.floor(Date.now() / 1000) + (options.expired ? -7 * 86_400 : 86_400);
    return `https://${options.host ?? "cdn.discordapp.com"}${pathOf(a)}?${sign(pathOf(a), ex)}`;
  };
  const attachmentJson = (a: StandInAttachment) => ({
    id: a.attachmentId,
    filename: a.filename,
    size: a.bytes.length,
    url: link(a.attachmentId),
    proxy_url: link(a.attachmentId, { host: "media.discordapp.net" }),
    content_type: a.contentType,
  });
  const messageJson = (m: StandInMessage, hidden: boolean): StandInMessage => {
    const own = attachments.size ? [...attachments.values()].filter((a) => a.messageId === m.id && !a.deleted).map(attachmentJson) : [];
    const withFiles = { ...m, attachments: [...m.attachments, ...own] };
    return hidden ? { ...withFiles, content: "", attachments: [], embeds: [], components: [] } : withFiles;
  };

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://stand-in");
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "Content-Type": "application/json", ...headers });
      res.end(JSON.stringify(body));
    };
    if (url.pathname.startsWith("/attachments/")) {
      cdnRequests.push(url.pathname);
      const [, , channelId, attachmentId] = url.pathname.split("/");
      const a = attachments.get(attachmentId ?? "");
      const hold = holds.get(attachmentId ?? "");
      if (hold) {
        hold.reached();
        await hold.released;
      }
      const ex = parseInt(url.searchParams.get("ex") ?? "", 16);
      const valid =
        a && !a.deleted && a.channelId === channelId && url.pathname === pathOf(a) && ex * 1000 > Date.now() && url.searchParams.toString().startsWith(sign(pathOf(a), ex).replace(/&$/, ""));
      if (!valid) {
        res.writeHead(404, { "Content-Type": "text/plain" });
        return res.end(NO_LONGER_AVAILABLE);
      }
      res.writeHead(200, { "Content-Type": a.contentType, "Content-Length": String(a.bytes.length) });
      return res.end(a.bytes);
    }
    if (!url.pathname.startsWith("/api/v10/")) return json(404, { message: "404: Not Found", code: 0 });
    userAgents.add(String(req.headers["user-agent"]));
    if (!/^DiscordBot \(.+, .+\)$/.test(String(req.headers["user-agent"]))) return json(400, { message: "Bad User-Agent", code: 0 });
    if (limited.count > 0) {
      limited.count--;
      return json(429, { message: "You are being rate limited.", retry_after: limited.retryAfter, global: limited.global }, { "Retry-After": String(Math.ceil(limited.retryAfter)), ...(limited.global ? { "X-RateLimit-Global": "true" } : {}) });
    }
    if (revoked || req.headers.authorization !== `Bot ${token}`) return json(401, { message: "401: Unauthorized", code: 0 });
    const route = url.pathname.slice("/api/v10".length);
    if (req.method === "GET" && route === "/applications/@me") return json(200, { id: "1123456789012345678", name: "Stash Importer", flags: intent ? 1 << 18 : 0 });
    if (req.method === "POST" && route === "/attachments/refresh-urls") {
      if (!standIn.refreshAvailable) return json(404, { message: "404: Not Found", code: 0 });
      let raw = "";
      for await (const chunk of req) raw += chunk;
      const body = JSON.parse(raw || "{}") as { attachment_urls?: string[] };
      const urls = body.attachment_urls ?? [];
      if (urls.length < 1 || urls.length > 50) return json(400, { message: "Invalid Form Body", code: 50035, errors: { attachment_urls: { _errors: [{ code: "BASE_TYPE_BAD_LENGTH", message: "Must be between 1 and 50 in length." }] } } });
      refreshCalls.push(urls.length);
      const refreshed_urls = urls.flatMap((original) => {
        const match = /\/attachments\/(\d+)\/(\d+)\//.exec(original);
        const a = match ? attachments.get(match[2]!) : undefined;
        return a && !a.deleted ? [{ original, refreshed: link(a.attachmentId, { host: new URL(original).host }) }] : [];
      });
      return json(200, { refreshed_urls });
    }
    const single = /^\/channels\/(\d+)\/messages\/(\d+)$/.exec(route);
    if (req.method === "GET" && single) {
      const m = messages.get(single[2]!);
      if (!m || m.channel_id !== single[1]) return json(404, { message: "Unknown Message", code: 10008 });
      return json(200, messageJson(m, !intent));
    }
    const list = /^\/channels\/(\d+)\/messages$/.exec(route);
    if (req.method === "GET" && list) {
      const channel = [...messages.values()].filter((m) => m.channel_id === list[1]);
      if (channel.length === 0) return json(404, { message: "Unknown Channel", code: 10003 });
      const before = url.searchParams.get("before");
      const limit = Math.min(100, Number(url.searchParams.get("limit") ?? 50));
      const page = channel
        .filter((m) => !before || BigInt(m.id) < BigInt(before))
        .sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1))
        .slice(0, limit)
        .map((m) => messageJson(m, !intent));
      return json(200, page);
    }
    json(404, { message: "404: Not Found", code: 0 });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const ensureMessage = (a: StandInAttachment) => {
    if (messages.has(a.messageId)) return;
    messages.set(a.messageId, {
      id: a.messageId,
      channel_id: a.channelId,
      type: 0,
      content: "",
      timestamp: new Date().toISOString(),
      author: { id: "402345678901234567", username: a.author ?? "tommy.v", global_name: a.author ?? "Tommy Vercetti" },
      attachments: [],
      embeds: [],
      components: [],
    });
  };

  const standIn: DiscordStandIn = {
    url: base,
    env: { DISCORD_API_BASE: `${base}/api`, DISCORD_CDN_BASE: base },
    token,
    refreshCalls,
    cdnRequests,
    userAgents,
    refreshAvailable: true,
    add(attachment) {
      const a = { contentType: "image/png", ...attachment };
      attachments.set(a.attachmentId, a);
      ensureMessage(a);
    },
    addMessage(message) {
      messages.set(message.id, { type: 0, content: "", timestamp: new Date().toISOString(), author: { id: "1", username: "bot", global_name: null, bot: true }, attachments: [], embeds: [], components: [], ...message });
    },
    delete(attachmentId) {
      const a = attachments.get(attachmentId);
      if (a) a.deleted = true;
    },
    link,
    revokeToken(value = true) {
      revoked = value;
    },
    setIntent(enabled) {
      intent = enabled;
    },
    rateLimit(count, retryAfter, global = false) {
      limited = { count, retryAfter, global };
    },
    hold(attachmentId) {
      let reached!: () => void;
      let release!: () => void;
      const reachedPromise = new Promise<void>((resolve) => (reached = resolve));
      holds.set(attachmentId, { reached, released: new Promise<void>((resolve) => (release = resolve)) });
      return {
        reached: reachedPromise,
        release: () => {
          holds.delete(attachmentId);
          release();
        },
      };
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  return standIn;
}
