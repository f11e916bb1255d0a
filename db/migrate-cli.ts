import { ConfigError, loadConfig } from "../app/services/platform/env.server.ts";
import path from "node:path";
import { createDb, DatabaseInUseError } from "./index.ts";
import { migrateToLatest } from "./migrate.ts";

try {
  const config = loadConfig();
  const handle = await createDb({
    databaseUrl: config.DATABASE_URL,
    pgliteDir: path.join(config.dataDir, "db"),
    poolMax: 2,
  });
  try {
    const { applied } = await migrateToLatest(handle.db);
    const where = handle.kind === "pglite" ? `PGlite at ${path.join(config.dataDir, "db")}` : "PostgreSQL";
    console.log(applied.length ? `Applied ${applied.join(", ")} on ${where}` : `${where} is up to date`);
  } finally {
    await handle.close();
  }
} catch (error) {
  console.error(error instanceof ConfigError || error instanceof DatabaseInUseError ? error.message : error);
  process.exitCode = 1;
}
