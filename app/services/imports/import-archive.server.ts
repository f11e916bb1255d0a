import type { Readable } from "node:stream";
import yauzl from "yauzl";
import { DomainError } from "~/services/platform/domain-error.server";

/**
 * A zip an owner uploaded (a DiscordChatExporter export with `--media`, or a folder of files), read with
 * yauzl: the central directory is checked before any entry is read — no entry may leave the archive
 * (`../`, an absolute path), and the declared sizes must stay within the limits, whole and per entry —
 * and each entry's bytes are held to its declared size while they stream (yauzl's
 * `validateEntrySizes`), so a zip bomb is refused before it unpacks, and one that lies about its sizes
 * fails on its first extra byte.
 */

export interface ArchiveLimits {
  maxEntries: number;
  /** What all entries may unpack to together. */
  maxTotalBytes: number;
  /** What one entry may unpack to. */
  maxEntryBytes: number;
}

export interface ArchiveEntry {
  name: string;
  size: number;
}

/** Past this ratio a large entry is taken for a bomb: media hardly compresses at all. */
const MAX_RATIO = 200;
const RATIO_CHECK_FROM_BYTES = 1024 * 1024;

function unsafe(message: string, details: Record<string, unknown> = {}): DomainError {
  return new DomainError("unsafe_archive", message, details);
}

const mb = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

export class ImportArchive {
  private constructor(
    private readonly zip: yauzl.ZipFile,
    private readonly byName: Map<string, yauzl.Entry>,
  ) {}

  get entries(): ArchiveEntry[] {
    return [...this.byName.values()].map((entry) => ({ name: entry.fileName, size: entry.uncompressedSize }));
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** Opens the zip at `path` and checks every entry; throws `unsafe_archive` or `invalid_export`. */
  static open(path: string, limits: ArchiveLimits): Promise<ImportArchive> {
    return new Promise((resolve, reject) => {
      yauzl.open(path, { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false }, (error, zip) => {
        if (error || !zip) return reject(new DomainError("invalid_export", "The file is not a readable zip archive", { reason: error?.message }));
        const byName = new Map<string, yauzl.Entry>();
        let total = 0;
        const fail = (refusal: DomainError) => {
          zip.close();
          reject(refusal);
        };
        zip.on("error", (cause: Error) => fail(unsafe(`The archive was refused: ${cause.message}`)));
        zip.on("entry", (entry: yauzl.Entry) => {
          const name = entry.fileName;
          if (!name.endsWith("/")) {
            if (byName.size >= limits.maxEntries) return fail(unsafe(`The archive has more than ${limits.maxEntries} files`, { max_entries: limits.maxEntries }));
            if (entry.isEncrypted()) return fail(unsafe(`${name} is encrypted; upload an archive without a password`));
            if (entry.uncompressedSize > limits.maxEntryBytes) return fail(unsafe(`${name} would unpack to ${mb(entry.uncompressedSize)}, more than the ${mb(limits.maxEntryBytes)} a file may be`));
            if (entry.uncompressedSize > RATIO_CHECK_FROM_BYTES && entry.uncompressedSize / Math.max(entry.compressedSize, 1) > MAX_RATIO) {
              return fail(unsafe(`${name} is compressed ${Math.round(entry.uncompressedSize / Math.max(entry.compressedSize, 1))} to 1, which only a zip bomb is`));
            }
            total += entry.uncompressedSize;
            if (total > limits.maxTotalBytes) return fail(unsafe(`The archive would unpack to more than ${mb(limits.maxTotalBytes)}`, { max_unpacked_mb: Math.round(limits.maxTotalBytes / (1024 * 1024)) }));
            byName.set(name, entry);
          }
          zip.readEntry();
        });
        zip.on("end", () => {
          zip.removeAllListeners("error");
          zip.on("error", () => undefined);
          resolve(new ImportArchive(zip, byName));
        });
        zip.readEntry();
      });
    });
  }

  /** One entry's bytes, held to its declared size. */
  openStream(name: string): Promise<Readable> {
    const entry = this.byName.get(name);
    if (!entry) return Promise.reject(new DomainError("not_found", `${name} is not in the archive`));
    return new Promise((resolve, reject) => {
      this.zip.openReadStream(entry, (error, stream) => (error || !stream ? reject(unsafe(`${name} could not be read: ${error?.message}`)) : resolve(stream)));
    });
  }

  /** A text entry (an export's JSON), whole. */
  async readText(name: string): Promise<string> {
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of await this.openStream(name)) chunks.push(chunk as Buffer);
    } catch (error) {
      if (error instanceof DomainError) throw error;
      throw unsafe(`${name} could not be read: ${(error as Error).message}`);
    }
    return Buffer.concat(chunks).toString("utf8");
  }

  close(): void {
    this.zip.close();
  }
}
