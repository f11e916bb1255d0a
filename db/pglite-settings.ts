import fs from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";

/**
 * The embedded database's settings and its initdb template (decision 120).
 *
 * PGlite starts PostgreSQL with 128 MB of shared buffers inside its WebAssembly memory, and that
 * memory is touched at start, so an idle embedded server held ~130 MB for a cache of pages the
 * operating system's page cache keeps anyway (PGlite reads its data directory through the file
 * system). 16 MB holds the hot catalogue and index pages of a single-machine install.
 */
export const PGLITE_SHARED_BUFFERS = "16MB";

/**
 * V8 compiles PGlite's WebAssembly (PostgreSQL itself) with its baseline compiler only. The
 * optimising tier recompiled the hot half of a 9 MB module in the background: ~65 MB more resident
 * memory for as long as the process runs and ~1 s more CPU at start, for ~10 % less CPU per query
 * once warm (decision 120). Nothing else in the process runs WebAssembly but Node's own HTTP client
 * parser, which outbound fetches use.
 */
export const PGLITE_V8_FLAGS = "--liftoff-only";

/** PGlite's own start parameters (single-user mode, no parallel workers…) plus ours. */
export function pgliteStartParams(pglite: typeof PGlite): string[] {
  return [...pglite.defaultStartParams, "-c", `shared_buffers=${PGLITE_SHARED_BUFFERS}`];
}

/**
 * Where `npm run build` leaves a data directory as initdb made it, for this PGlite version. A new
 * data directory starts as a copy of it instead of running initdb, which costs ~5 s of CPU and a
 * second PGlite instance in memory (peak RSS ~850 MB) on a first start. A plain directory, not an
 * archive: unpacking one through PGlite's `loadDataDir` left ~60 MB of malloc'd memory behind.
 */
export const PGLITE_TEMPLATE_ROOT = path.resolve("build/pglite");

const templateDir = (root: string, version: string) => path.join(root, `initdb-${version}`);

/** The installed PGlite's version, read from its package (resolved from the working directory, as the bundled host is). */
export function installedPgliteVersion(): string | undefined {
  try {
    return (JSON.parse(fs.readFileSync(path.resolve("node_modules/@electric-sql/pglite/package.json"), "utf8")) as { version: string }).version;
  } catch {
    return undefined;
  }
}

/**
 * Fills a data directory that has no database yet from the build's template, when there is one
 * made by the installed PGlite (a data directory is tied to the PostgreSQL build inside it); true
 * when it did. Otherwise PGlite runs initdb itself, as before.
 */
export function seedFromTemplate(dataDir: string, root = PGLITE_TEMPLATE_ROOT): boolean {
  if (fs.existsSync(path.join(dataDir, "PG_VERSION"))) return false;
  const version = installedPgliteVersion();
  const template = version && templateDir(root, version);
  if (!template || !fs.existsSync(path.join(template, "PG_VERSION"))) return false;
  fs.cpSync(template, dataDir, { recursive: true });
  return true;
}

/** Runs initdb once into the template directory `seedFromTemplate` copies. */
export async function writePgliteTemplate(root = PGLITE_TEMPLATE_ROOT): Promise<string> {
  const version = installedPgliteVersion();
  if (!version) throw new Error("@electric-sql/pglite is not installed under node_modules");
  const dir = templateDir(root, version);
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(root, { recursive: true });
  const { PGlite } = await import("@electric-sql/pglite");
  const pglite = await PGlite.create({ dataDir: dir });
  await pglite.close();
  return dir;
}
