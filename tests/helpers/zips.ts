import yazl from "yazl";

export interface ZipEntry {
  name: string;
  data: Buffer | string;
  /** Deflate (default) or store. */
  compress?: boolean;
}

/** A zip made by yazl, as archivers make them. */
export function zipOf(entries: ZipEntry[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const entry of entries) zip.addBuffer(Buffer.isBuffer(entry.data) ? entry.data : Buffer.from(entry.data), entry.name, { compress: entry.compress ?? true, mtime: new Date("2024-03-02T12:00:00Z") });
  zip.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    zip.outputStream.on("data", (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on("end", () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on("error", reject);
  });
}

/**
 * A zip whose entry climbs out of the folder it is unpacked in (`../../evil.png`), as a crafted upload
 * would: yazl refuses to write such a name, so the entry is written as `zz/zz/evil.png` and the name
 * patched in place (local header and central directory), which keeps the archive valid.
 */
export async function traversalZip(data: Buffer): Promise<Buffer> {
  const zip = await zipOf([{ name: "zz/zz/evil.png", data, compress: false }]);
  const from = Buffer.from("zz/zz/evil.png");
  const to = Buffer.from("../../evil.png");
  for (let at = zip.indexOf(from); at !== -1; at = zip.indexOf(from, at + 1)) to.copy(zip, at);
  return zip;
}

/** A zip bomb in miniature: one entry of 64 MiB of zeros, deflated to a few dozen KB. */
export function zipBomb(): Promise<Buffer> {
  return zipOf([{ name: "photos/huge.png", data: Buffer.alloc(64 * 1024 * 1024) }]);
}
