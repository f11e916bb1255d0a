import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../db/index.ts";
import { migrateToLatest } from "../../db/migrate.ts";
import { seedFromTemplate, writePgliteTemplate } from "../../db/pglite-settings.ts";

let root: string;
let template: string;

/** Every file under `dir` with its size and modification time. */
function snapshot(dir: string): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const name of fs.readdirSync(dir, { recursive: true }) as string[]) {
    const stat = fs.statSync(path.join(dir, name));
    if (stat.isFile()) entries[name] = `${stat.size}:${stat.mtimeMs}`;
  }
  return entries;
}

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "stash-pglite-template-test-"));
  template = await writePgliteTemplate(path.join(root, "template"));
});

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe("the embedded database's initdb template", { timeout: 180_000 }, () => {
  it("starts a new data directory as a copy that migrates, keeps its rows and leaves the template as it was", async () => {
    const before = snapshot(template);
    const dataDir = path.join(root, "fresh");
    expect(seedFromTemplate(dataDir, path.join(root, "template"))).toBe(true);

    const first = await createDb({ pgliteDir: dataDir });
    expect((await migrateToLatest(first.db)).applied.length).toBeGreaterThan(0);
    await first.db.insertInto("users").values({ email: "owner@example.com" }).execute();
    await first.close();

    const again = await createDb({ pgliteDir: dataDir });
    try {
      expect((await migrateToLatest(again.db)).applied).toEqual([]);
      const users = await again.db.selectFrom("users").select("email").execute();
      expect(users).toEqual([{ email: "owner@example.com" }]);
    } finally {
      await again.close();
    }
    expect(snapshot(template)).toEqual(before);
  });

  it("never touches a data directory that already holds a database", async () => {
    const dataDir = path.join(root, "fresh");
    const version = fs.readFileSync(path.join(dataDir, "PG_VERSION"), "utf8");
    const before = snapshot(dataDir);
    expect(seedFromTemplate(dataDir, path.join(root, "template"))).toBe(false);
    expect(snapshot(dataDir)).toEqual(before);
    expect(fs.readFileSync(path.join(dataDir, "PG_VERSION"), "utf8")).toBe(version);
  });

  it("is not used when another PGlite version made it: the directory is left for initdb", () => {
    const other = path.join(root, "other-version");
    fs.cpSync(template, path.join(other, "initdb-0.0.1"), { recursive: true });
    const dataDir = path.join(root, "no-template");
    expect(seedFromTemplate(dataDir, other)).toBe(false);
    expect(fs.existsSync(path.join(dataDir, "PG_VERSION"))).toBe(false);
  });
});
