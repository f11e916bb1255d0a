/**
 * The module graph of the app's server side (docs/decisions/070): no import cycles among app, server,
 * db and storage modules, and the host imports app code only as types.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOTS = ["app", "server", "db", "storage"];
const IMPORT = /^\s*(import|export)\s+(type\s+)?[^"';]*?from\s+["']([^"']+)["']|^\s*import\s+["']([^"']+)["']/gm;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name.startsWith("+") || entry.name === "node_modules" ? [] : sourceFiles(full);
    return /\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

function resolve(from: string, spec: string): string | null {
  let base: string;
  if (spec.startsWith("~/")) base = path.join("app", spec.slice(2));
  else if (spec.startsWith(".")) base = path.join(path.dirname(from), spec);
  else return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return path.normalize(candidate);
  }
  return null;
}

/** Value imports only: a type import is erased and cannot make a cycle at run time. */
function valueImports(file: string): string[] {
  const text = fs.readFileSync(file, "utf8");
  const found: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    if (match[2]) continue;
    const clause = match[0];
    if (/^\s*(import|export)\s*\{[^}]*\}/.test(clause) && /\{\s*(type\s+[\w$]+\s*(as\s+[\w$]+\s*)?,?\s*)+\}/.test(clause)) continue;
    const target = resolve(file, match[3] ?? match[4]);
    if (target) found.push(target);
  }
  return found;
}

describe("the module graph", () => {
  const files = [...ROOTS.flatMap(sourceFiles), "server.ts"];
  const graph = new Map(files.map((file) => [path.normalize(file), valueImports(file)]));

  it("has no import cycles", () => {
    const cycles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const stack: string[] = [];
    const visit = (file: string) => {
      state.set(file, "open");
      stack.push(file);
      for (const next of graph.get(file) ?? []) {
        if (state.get(next) === "open") cycles.push([...stack.slice(stack.indexOf(next)), next].join(" → "));
        else if (!state.has(next)) visit(next);
      }
      stack.pop();
      state.set(file, "done");
    };
    for (const file of graph.keys()) if (!state.has(file)) visit(file);
    expect(cycles).toEqual([]);
  });

  it("keeps the host free of app code", () => {
    expect(graph.get("server.ts")).toEqual([]);
  });
});
