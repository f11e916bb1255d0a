import type { TestProject } from "vitest/node";
import { buildWhenStale, migrateTemplate } from "./run-setup.ts";

/** Browser tests and the tests of the production entry run the build: made once per run, when stale. */
export default async function setup(project: TestProject) {
  buildWhenStale();
  const template = await migrateTemplate();
  project.provide("postgresTemplate", template.postgres);
  project.provide("pgliteTemplate", template.pglite);
  project.provide("appSource", "build");
  return () => template.drop();
}
