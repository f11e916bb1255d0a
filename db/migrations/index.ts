import type { Migration } from "kysely";
import { initial } from "./0001-initial.ts";

/** Every migration, in order. Names sort lexically; add new ones at the end. */
export const migrations: Record<string, Migration> = {
  "0001-initial": initial,
};
