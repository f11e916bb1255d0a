import type { TestProject } from "vitest/node";
import { startAppSourceServer } from "./app-source.ts";
import { buildIsCurrent, migrateTemplate } from "./run-setup.ts";

/**
 * Integration tests never build: they serve build/ when it holds every source (after `npm test`'s
 * build step, say), and the sources themselves through one Vite server when it does not (an edit).
 * TEST_APP=source or TEST_APP=build chooses instead.
 */
export default async function setup(project: TestProject) {
  const template = await migrateTemplate();
  project.provide("postgresTemplate", template.postgres);
  project.provide("pgliteTemplate", template.pglite);
  const fromSource = process.env.TEST_APP === "source" || (process.env.TEST_APP !== "build" && !buildIsCurrent());
  const source = fromSource ? await startAppSourceServer() : undefined;
  project.provide("appSource", source?.url ?? "build");
  return async () => {
    await source?.close();
    await template.drop();
  };
}
