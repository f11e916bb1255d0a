import { purgeExpiredSessions } from "../../app/services/accounts/session-purge.server.ts";
import type { Command } from "../command.ts";

export const sessionPurge: Command = {
  name: "session:purge",
  summary: "Delete sessions past their expiry (the server also does this every hour)",
  options: {},
  async run(ctx) {
    const deleted = await purgeExpiredSessions(ctx.db);
    return { json: { deleted }, text: `Deleted ${deleted} expired session${deleted === 1 ? "" : "s"}` };
  },
};
