import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AUDIT_ACTION_LABELS, auditActionLabel } from "~/lib/audit-actions";

describe("auditActionLabel", () => {
  it("labels known actions and shows unknown ones as recorded", () => {
    expect(auditActionLabel("key.create")).toBe("Created an API key");
    expect(auditActionLabel("portal.refused")).toBe("Was refused a change");
    expect(auditActionLabel("something.new")).toBe("something.new");
    expect(auditActionLabel("constructor")).toBe("constructor");
  });
});

/** The app's sources, tests and the public site's words (which quote file names like server.cfg) left out. */
function appSources(dir = path.resolve("app")): { file: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return full.endsWith(path.join("lib", "content")) ? [] : appSources(full);
    if (!/\.tsx?$/.test(entry.name) || /\.test\.tsx?$/.test(entry.name)) return [];
    return [{ file: path.relative(process.cwd(), full), text: readFileSync(full, "utf8") }];
  });
}

/** An action string as the code writes one: a quoted `domain.verb` of a domain the trail records. */
const ACTION_LITERAL = /["'`]((?:file|upload|key|server|logs|plan|case|team|member|portal|import)\.[a-z_]+)["'`]/g;

describe("every recorded action has a label", () => {
  // The labels' own file names every action: what the rest of the code records is what counts.
  const sources = appSources().filter(({ file }) => file !== path.join("app", "lib", "audit-actions.ts"));
  const used = new Map<string, string>();
  for (const { file, text } of sources) for (const match of text.matchAll(ACTION_LITERAL)) used.set(match[1]!, file);

  it("finds the actions the code records (the scan itself works)", () => {
    for (const action of ["file.upload", "file.sign_url", "file.upload_resumable", "logs.write", "logs.search", "portal.refused", "case.close", "member.join"]) {
      expect(used.has(action), action).toBe(true);
    }
  });

  it("labels each one, so /audit never shows a raw action name", () => {
    const unlabelled = [...used].filter(([action]) => !Object.hasOwn(AUDIT_ACTION_LABELS, action)).map(([action, file]) => `${action} (${file})`);
    expect(unlabelled).toEqual([]);
  });

  it("writes actions out in full, never built from a template the scan cannot read", () => {
    const built = sources.filter(({ text }) => /action:\s*`[^`]*\$\{/.test(text)).map(({ file }) => file);
    expect(built).toEqual([]);
  });

  it("keeps no label for an action nothing records", () => {
    expect(Object.keys(AUDIT_ACTION_LABELS).filter((action) => !used.has(action))).toEqual([]);
  });
});
