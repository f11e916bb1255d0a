import http from "node:http";
import type { AddressInfo } from "node:net";

interface HostedFile {
  name: string;
  bytes: Buffer;
  contentType: string;
}

function listen(server: http.Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

const close = (server: http.Server) => () =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

export interface FivemanageStandIn {
  url: string;
  /** FIVEMANAGE_API_BASE for the app. */
  apiBase: string;
  apiKey: string;
  add(file: HostedFile): void;
  /** Pages the list was asked for. */
  pages: number[];
  close(): Promise<void>;
}

/**
 * Fivemanage's API on loopback: `GET /api/v3/file?page=&limit=` with the key in `Authorization` (401
 * for another), answering `{status: "ok", data: [{id, url, originalUrl, filename, size, createdAt}]}`
 * newest first, and the files themselves on the same origin (its storage, for the stand-in).
 */
export async function startFivemanageStandIn(apiKey = "fm_stand_in_key"): Promise<FivemanageStandIn> {
  const files: HostedFile[] = [];
  const pages: number[] = [];
  let base = "";
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://stand-in");
    if (url.pathname === "/api/v3/file") {
      if (req.headers.authorization !== apiKey) {
        res.writeHead(401, { "Content-Type": "application/json" });
        return res.end(JSON.stringify({ status: "error", message: "Unauthorized" }));
      }
      const page = Number(url.searchParams.get("page") ?? 1);
      const limit = Math.min(100, Number(url.searchParams.get("limit") ?? 50));
      pages.push(page);
      const data = files.slice((page - 1) * limit, page * limit).map((file, index) => ({
        id: `fm_${(page - 1) * limit + index}`,
        url: `https://cdn.my-rp.example/${file.name}`,
        originalUrl: `${base}/storage/${file.name}`,
        filename: file.name,
        size: file.bytes.length,
        createdAt: "2024-01-15T10:00:00.000Z",
      }));
      res.writeHead(200, { "Content-Type": "application/json" });
      return res.end(JSON.stringify({ status: "ok", data }));
    }
    const stored = url.pathname.startsWith("/storage/") ? files.find((f) => `/storage/${f.name}` === url.pathname) : undefined;
    if (!stored) {
      res.writeHead(404);
      return res.end();
    }
    res.writeHead(200, { "Content-Type": stored.contentType, "Content-Length": String(stored.bytes.length) });
    res.end(stored.bytes);
  });
  base = await listen(server);
  return { url: base, apiBase: `${base}/api`, apiKey, pages, add: (file) => files.push(file), close: close(server) };
}

export interface ZiplineStandIn {
  url: string;
  add(file: HostedFile): void;
  requests: string[];
  close(): Promise<void>;
}

/** A Zipline instance on loopback serving raw files at `/r/{name}` (404 for what it no longer has). */
export async function startZiplineStandIn(): Promise<ZiplineStandIn> {
  const files = new Map<string, HostedFile>();
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? "");
    const match = /^\/r\/([^/?]+)$/.exec(req.url ?? "");
    const file = match ? files.get(decodeURIComponent(match[1]!)) : undefined;
    if (!file) {
      res.writeHead(404, { "Content-Type": "application/json" });
      return res.end(JSON.stringify({ error: "file not found" }));
    }
    res.writeHead(200, { "Content-Type": file.contentType, "Content-Length": String(file.bytes.length) });
    res.end(file.bytes);
  });
  const url = await listen(server);
  return { url, requests, add: (file) => files.set(file.name, file), close: close(server) };
}
