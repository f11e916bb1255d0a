import http from "node:http";
import type net from "node:net";

export interface KeepAliveRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer | FormData | URLSearchParams;
}

export interface KeepAliveClient {
  /** Sends a request over the client's one connection and answers it as a fetch Response. */
  request(pathOrUrl: string, init?: KeepAliveRequest): Promise<Response>;
  /** How many distinct sockets carried this client's requests so far. */
  socketCount(): number;
  close(): void;
}

/** FormData and URLSearchParams serialised exactly as fetch would send them. */
async function encode(body: KeepAliveRequest["body"]): Promise<{ bytes?: Buffer; contentType?: string }> {
  if (body === undefined) return {};
  if (typeof body === "string" || Buffer.isBuffer(body)) return { bytes: Buffer.from(body) };
  const request = new Request("http://encode.invalid/", { method: "POST", body });
  return { bytes: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get("content-type") ?? undefined };
}

function toHeaders(raw: string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  return headers;
}

/**
 * A client like a game server's HTTP stack: one keep-alive connection reused for every request
 * (`maxSockets: 1`), so an answer that leaves the connection unusable fails the next request.
 */
export function keepAliveClient(baseUrl: string): KeepAliveClient {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const sockets = new Set<net.Socket>();
  return {
    async request(pathOrUrl, init = {}) {
      const { bytes, contentType } = await encode(init.body);
      const headers: Record<string, string> = { ...(contentType ? { "content-type": contentType } : {}), ...init.headers };
      if (bytes) headers["content-length"] = String(bytes.length);
      const method = init.method ?? (bytes ? "POST" : "GET");
      return new Promise<Response>((resolve, reject) => {
        const req = http.request(new URL(pathOrUrl, baseUrl), { method, headers, agent }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("error", reject);
          res.on("end", () => {
            const status = res.statusCode ?? 0;
            const empty = status === 204 || status === 304 || method === "HEAD";
            resolve(new Response(empty ? null : Buffer.concat(chunks), { status, headers: toHeaders(res.rawHeaders) }));
          });
        });
        req.on("socket", (socket) => sockets.add(socket));
        req.on("error", reject);
        req.end(bytes);
      });
    },
    socketCount: () => sockets.size,
    close: () => agent.destroy(),
  };
}
