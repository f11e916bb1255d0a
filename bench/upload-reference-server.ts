/**
 * The reference for small uploads: bare Node + busboy, each file streamed to disk and fsynced, and for
 * images the same sharp work Stash does on a WebP screenshot (read its header, a 320 px WebP
 * thumbnail, a ThumbHash placeholder). No framework, no database, no logging.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import busboy from "busboy";
import sharp from "sharp";
import { rgbaToThumbHash } from "thumbhash";

const root = path.resolve(process.env.BENCH_ROOT!);
fs.mkdirSync(root, { recursive: true });

function store(stream: NodeJS.ReadableStream): Promise<string> {
  const file = path.join(root, randomBytes(10).toString("hex"));
  return new Promise((resolve, reject) => {
    const out = fs.createWriteStream(file);
    stream.pipe(out);
    out.on("error", reject);
    out.on("finish", () => fs.open(file, "r+", (error, fd) => (error ? reject(error) : fs.fsync(fd, () => fs.close(fd, () => resolve(file))))));
  });
}

async function imageWork(file: string) {
  await sharp(file).metadata();
  const thumb = await sharp(file).resize({ width: 320, withoutEnlargement: true }).webp({ quality: 80 }).toBuffer();
  const { data, info } = await sharp(thumb).resize(100, 100, { fit: "inside" }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  rgbaToThumbHash(info.width, info.height, data);
  await fs.promises.writeFile(`${file}.thumb.webp`, thumb);
}

const server = http.createServer((req, res) => {
  const parser = busboy({ headers: req.headers });
  const work: Promise<unknown>[] = [];
  parser.on("file", (_name, stream, info) => {
    work.push(store(stream).then((file) => (info.mimeType.startsWith("image/") ? imageWork(file) : undefined)));
  });
  parser.on("close", () => {
    Promise.all(work).then(
      () => res.writeHead(201, { "Content-Type": "application/json" }).end('{"success":true}'),
      () => res.writeHead(500).end(),
    );
  });
  req.pipe(parser);
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  const address = server.address() as { port: number };
  process.stdout.write(`${JSON.stringify({ bench: { port: address.port } })}\n`);
});
