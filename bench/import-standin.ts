/**
 * Child process of the import bench: Discord's CDN and refresh-urls on loopback. Every attachment id
 * answers the same ~100 KB JPEG with the id written into a comment segment, so each file's bytes are
 * its own (no two are deduplicated) at no cost per request. Counts refresh calls and their sizes
 * (GET /stats). Prints one JSON line `{"bench": {port}}` when ready.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";

const WIDTH = 720;
const HEIGHT = 540;
const noise = Buffer.alloc(WIDTH * HEIGHT * 3);
let state = 7;
for (let i = 0; i < noise.length; i++) {
  state = (state * 1664525 + 1013904223) >>> 0;
  // Gradients with noise: compresses like a phone photo, to about 100 KB at this size and quality.
  noise[i] = ((i / 3) % WIDTH) / 4 + ((state >>> 24) & 63);
}
const base = await sharp(noise, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } }).jpeg({ quality: 80 }).toBuffer();

/** The JPEG with `text` in a COM segment right after SOI: a valid image whose bytes name the attachment. */
function jpegFor(text: string): Buffer {
  const comment = Buffer.from(text);
  const header = Buffer.from([0xff, 0xfe, (comment.length + 2) >> 8, (comment.length + 2) & 0xff]);
  return Buffer.concat([base.subarray(0, 2), header, comment, base.subarray(2)]);
}

const stats = { refreshCalls: 0, refreshedUrls: 0, maxBatch: 0, cdnRequests: 0 };

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url ?? "/", "http://stand-in");
  if (url.pathname === "/stats") {
    res.writeHead(200, { "Content-Type": "application/json" });
    return res.end(JSON.stringify({ ...stats, imageBytes: base.length }));
  }
  if (req.method === "POST" && url.pathname === "/api/v10/attachments/refresh-urls") {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const urls = (JSON.parse(raw) as { attachment_urls: string[] }).attachment_urls;
    stats.refreshCalls++;
    stats.refreshedUrls += urls.length;
    stats.maxBatch = Math.max(stats.maxBatch, urls.length);
    const ex = Math.floor(Date.now() / 1000) + 86_400;
    const refreshed_urls = urls.map((original) => ({ original, refreshed: `${original.split("?")[0]}?ex=${ex.toString(16)}&is=${(ex - 86_400).toString(16)}&hm=fresh&` }));
    res.writeHead(200, { "Content-Type": "application/json" });
    return res.end(JSON.stringify({ refreshed_urls }));
  }
  const match = /^\/attachments\/\d+\/(\d+)\//.exec(url.pathname);
  if (match && url.searchParams.get("hm") === "fresh") {
    stats.cdnRequests++;
    const body = jpegFor(`attachment ${match[1]}`);
    res.writeHead(200, { "Content-Type": "image/jpeg", "Content-Length": String(body.length) });
    return res.end(body);
  }
  res.writeHead(404, { "Content-Type": "text/plain" });
  res.end("This content is no longer available.");
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => process.stdout.write(`${JSON.stringify({ bench: { port: (server.address() as AddressInfo).port } })}\n`));
