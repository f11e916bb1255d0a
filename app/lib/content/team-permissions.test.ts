import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { KEY_PERMISSION_MAKERS, TEAM_ACTION_PERMISSIONS } from "~/lib/content/team-permissions";
import { API_KEY_PERMISSIONS } from "~/lib/api-key-status";

const page = readFileSync(path.resolve("docs/teams.md"), "utf8");
/** The rows of the markdown table that follows `header`. */
function tableAfter(header: string): string[] {
  const lines = page.slice(page.indexOf(header)).split("\n").slice(2);
  return lines.slice(0, lines.findIndex((line) => !line.startsWith("|")));
}

describe("the permission tables of /docs#teams and docs/teams.md", () => {
  it("are the same, row for row", () => {
    expect(tableAfter("| action | needs |")).toEqual(TEAM_ACTION_PERMISSIONS.map((row) => `| ${row.action} | ${row.needs} |`));
    expect(tableAfter("| key permission | its maker needs |")).toEqual(KEY_PERMISSION_MAKERS.map((row) => `| \`${row.permission}\` | ${row.needs} |`));
  });

  it("name every key permission and the team permission each needs", () => {
    expect(KEY_PERMISSION_MAKERS.map((row) => row.permission)).toEqual([...API_KEY_PERMISSIONS]);
    expect(Object.fromEntries(KEY_PERMISSION_MAKERS.map((row) => [row.permission, row.needs]))).toEqual({ upload: "View media", read: "View media", delete: "Delete media", "logs:write": "View logs" });
  });
});
