import type { Command } from "../command.ts";
import { keyCreate } from "./key-create.ts";
import { planSet } from "./plans.ts";
import { serverCreate, serverShow, serverUpdate } from "./servers.ts";
import { sessionPurge } from "./sessions.ts";
import { storageCheck } from "./storage.ts";
import { userCreate, userList, userRole } from "./users.ts";
import { teamList } from "./teams.ts";
import { importCommands } from "./imports.ts";

/** Every CLI command; add new ones here. */
export const commands: Command[] = [userCreate, userRole, userList, teamList, serverCreate, serverShow, serverUpdate, keyCreate, planSet, sessionPurge, storageCheck, ...importCommands];
