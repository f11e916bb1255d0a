/** The reference "bare Node static server": stat, headers, stream. No framework, no logging. */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";

const root = path.resolve(process.env.BENCH_ROOT!);
const server = http.createServer((req, res) => {
  const file = path.join(root, decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname));
  if (!file.startsWith(root + path.sep)) {
    res.writeHead(404).end();
    return;
  }
  fs.stat(file, (error, stat) => {
    if (error || !stat.isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "Content-Type": "application/octet-stream", "Content-Length": stat.size, "Last-Modified": stat.mtime.toUTCString() });
    fs.createReadStream(file).pipe(res);
  });
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address() as { port: number };
  process.stdout.write(`${JSON.stringify({ bench: { port: address.port } })}\n`);
});
