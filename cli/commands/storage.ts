import { checkStoredFiles } from "../../app/services/maintenance/storage-check.server.ts";
import type { Command } from "../command.ts";

export const storageCheck: Command = {
  name: "storage:check",
  summary: "Find files whose bytes are missing from storage; --repair deletes those rows and releases their quota",
  options: {
    repair: { type: "boolean", description: "delete the rows of files whose bytes are gone, releasing the storage they count" },
  },
  async run(ctx, args) {
    const result = await checkStoredFiles(ctx, { repair: args.repair === true });
    const lines = [`Checked ${result.checked} file${result.checked === 1 ? "" : "s"}: ${result.missing.length} without their bytes`];
    for (const file of result.missing) lines.push(`  ${file.id}  ${file.path}  (${file.size_bytes} bytes)`);
    if (args.repair === true) lines.push(`Removed ${result.repaired} and released their storage`);
    else if (result.missing.length > 0) lines.push("Run again with --repair to remove them and release their storage");
    return { json: result, text: lines.join("\n") };
  },
};
