import http from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedWebhookMessage {
  webhook: string;
  wait: boolean;
  body: { content?: string; username?: string; embeds?: Array<{ title?: string; description?: string }> };
}

export interface DiscordWebhookStandIn {
  /** For DISCORD_API_BASE: webhooks live under `${apiBase}/webhooks/{id}/{token}`. */
  apiBase: string;
  webhookUrl(id: string): string;
  /** Messages Discord accepted, in the order it accepted them. */
  messages: ReceivedWebhookMessage[];
  /** Every request, accepted or not, with the status it got. */
  requests: Array<{ webhook: string; status: number; at: number }>;
  /** The next `times` posts get 429 with `retry_after` seconds (body and Retry-After header), as Discord's limiter answers. */
  rateLimitNext(times: number, retryAfterSeconds: number): void;
  /** The next `times` posts get a 502, as Discord does when it is having a bad day. */
  failNext(times: number): void;
  /** The next post is answered only once `release` is called, as a slow Discord would; `arrived` resolves when it comes in. */
  holdNext(): { arrived: Promise<void>; release(): void };
  close(): Promise<void>;
}

/**
 * A local server speaking Discord's webhook execution protocol: `POST /api/webhooks/{id}/{token}`
 * answers 200 with a message object under `?wait=true` (204 without), 429 with `retry_after` while a
 * rate limit is set, and sends X-RateLimit-* bucket headers like Discord.
 */
export async function startDiscordWebhookStandIn(): Promise<DiscordWebhookStandIn> {
  const messages: ReceivedWebhookMessage[] = [];
  const requests: DiscordWebhookStandIn["requests"] = [];
  let limited = 0;
  let retryAfter = 1;
  let failing = 0;
  let nextId = 1n;
  let hold: { arrived: () => void; released: Promise<void> } | undefined;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const match = /^\/api\/webhooks\/(\d+)\/([\w-]+)$/.exec(url.pathname);
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", async () => {
      const held = hold;
      hold = undefined;
      if (held) {
        held.arrived();
        await held.released;
      }
      const send = (status: number, body?: unknown, headers: Record<string, string> = {}) => {
        requests.push({ webhook: match?.[1] ?? "", status, at: Date.now() });
        res.writeHead(status, { ...(body === undefined ? {} : { "Content-Type": "application/json" }), ...headers });
        res.end(body === undefined ? undefined : JSON.stringify(body));
      };
      if (req.method !== "POST" || !match) return send(404, { message: "Unknown Webhook", code: 10015 });
      if (limited > 0) {
        limited -= 1;
        return send(429, { message: "You are being rate limited.", retry_after: retryAfter, global: false }, { "Retry-After": String(Math.ceil(retryAfter)), "X-RateLimit-Remaining": "0", "X-RateLimit-Reset-After": String(retryAfter) });
      }
      if (failing > 0) {
        failing -= 1;
        return send(502, { message: "Bad Gateway" });
      }
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as ReceivedWebhookMessage["body"];
      const wait = url.searchParams.get("wait") === "true";
      messages.push({ webhook: match[1]!, wait, body });
      const bucket = { "X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "4", "X-RateLimit-Reset-After": "2" };
      if (!wait) return send(204, undefined, bucket);
      send(200, { id: String(nextId++), type: 0, channel_id: "1", content: body.content ?? "", embeds: body.embeds ?? [] }, bucket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const apiBase = `http://127.0.0.1:${port}/api`;
  return {
    apiBase,
    webhookUrl: (id) => `${apiBase}/webhooks/${id}/token-${id}`,
    messages,
    requests,
    rateLimitNext(times, seconds) {
      limited = times;
      retryAfter = seconds;
    },
    failNext(times) {
      failing = times;
    },
    holdNext() {
      let arrived!: () => void;
      let release!: () => void;
      const arrival = new Promise<void>((resolve) => (arrived = resolve));
      hold = { arrived, released: new Promise<void>((resolve) => (release = resolve)) };
      return { arrived: arrival, release };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
