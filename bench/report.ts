/**
 * The parts of bench/RESULTS.md that judge issue 41's figures (decision 122): the serving table, the
 * proxy topology, the embedded start, the summary of every figure with its reference and verdict, and
 * the dated history the file keeps.
 */
import fs from "node:fs";
import type { AccelRun } from "./accel.ts";
import type { EmbeddedStartResult, StartFigures } from "./embedded-start.ts";
import { median, round } from "./lib.ts";
import type { RevalidationResult, ServingResult } from "./serving.ts";
import type { SmallUploadRun } from "./small-uploads.ts";
import type { UploadResult } from "./uploads.ts";

export const verdict = (ok: boolean) => (ok ? "meets" : "**misses**");

const spread = (values: number[]) => `${median(values)} (${Math.min(...values)}–${Math.max(...values)})`;

/** The serving budgets of DESIGN.md, per size: against bare Node and nginx alone. */
const SERVING_BUDGETS: Record<string, { node: number; nginx: number } | undefined> = { "10 KB": { node: 0.8, nginx: 0.3 }, "1 MiB": { node: 0.8, nginx: 0.6 } };

export function renderServing(results: ServingResult[], rounds: number, seconds: number): string[] {
  const judged = results[0]?.tool === "wrk";
  const lines = [
    `## /f/ public file GET, Stash alone (keep-alive, 32 connections, ${rounds} interleaved rounds)`,
    "",
    `Load generator: ${results[0]?.tool}, 1 thread, ${seconds} s per run after a 1 s warm-up; each round runs Stash, the bare Node server and nginx one after the other. ` +
      "Stash runs in production mode with request logging on (LOG_LEVEL=info, stdout to a file) and its default memory cache for small files; nginx as an operator runs it: one worker, " +
      "sendfile, tcp_nopush, open_file_cache, a buffered access log; the bare Node server is http.createServer + fs.createReadStream. " +
      "Req/s is the median of the rounds; ratios are the median of the per-round ratios with their lowest–highest; CPU is each server's CPU time per request (nginx: its worker), median of the rounds.",
    "",
    "| file | Stash req/s | bare Node req/s | nginx req/s | Stash ÷ Node | Stash ÷ nginx | CPU µs/req Stash / Node / nginx | budget |",
    "|---|---|---|---|---|---|---|---|",
  ];
  for (const r of results) {
    const vsNode = median(r.roundRatiosVsNode);
    const vsNginx = median(r.roundRatiosVsNginx);
    const budget = SERVING_BUDGETS[r.size];
    const verdicts = budget
      ? `≥ ${budget.node} × Node: ${verdict(vsNode >= budget.node)}; ≥ ${budget.nginx} × nginx: ${judged ? verdict(vsNginx >= budget.nginx) : "not judged without wrk"}`
      : "reported (no budget)";
    lines.push(
      `| ${r.size} | ${median(r.perSecond.stash)} (${r.megabytesPerSecond.stash} MB/s) | ${median(r.perSecond.node)} | ${median(r.perSecond.nginx)} (${r.megabytesPerSecond.nginx} MB/s) | ${spread(r.roundRatiosVsNode)} | ${spread(r.roundRatiosVsNginx)} | ${r.stashCpuUs} / ${r.nodeCpuUs} / ${r.nginxCpuUs} | ${verdicts} |`,
    );
  }
  lines.push("");
  return lines;
}

export function renderAccel(runs: AccelRun[] | string, rounds: number, seconds: number): string[] {
  const lines = ["## File bytes through the compose topology: nginx → Stash → nginx sendfile (X-Accel-Redirect)", ""];
  if (typeof runs === "string") return [...lines, `- ${runs}`, ""];
  lines.push(
    `deploy/nginx.conf as docker-compose.yml runs it (upstream, port, files path and log paths rewritten; one worker for the one Stash process), Stash with \`ACCEL_REDIRECT_PREFIX=/_stash/files/\` on PostgreSQL and disk storage. ` +
      `The reference is a second server block of the same nginx serving the same files directly. Before measuring, the bench checks that every header Stash set reaches the client unchanged, the bytes are whole and a Range gets a 206. ` +
      `wrk, 1 thread, 32 connections, ${seconds} s per run, ${rounds} interleaved rounds; CPU per request is nginx's worker and Stash's process (median of the rounds).`,
    "",
    "| file | proxied req/s | direct req/s | proxied ÷ direct | CPU µs/req proxied: nginx + Stash | CPU µs/req direct (nginx) | budget |",
    "|---|---|---|---|---|---|---|",
    ...runs.map(
      (r) =>
        `| ${r.size} | ${median(r.accelPerSecond)} (${r.megabytesPerSecond.accel} MB/s) | ${median(r.directPerSecond)} (${r.megabytesPerSecond.direct} MB/s) | ${spread(r.ratios)} | ${r.accelCpuUs.nginx} + ${r.accelCpuUs.stash} | ${r.directCpuUs} | ≥ ${r.budget}×: ${verdict(median(r.ratios) >= r.budget)} |`,
    ),
    "",
  );
  return lines;
}

const figure = (f: { median: number; min: number; max: number }, unit: string) => `${f.median}${unit} (${f.min}–${f.max})`;

export function renderEmbeddedStart(result: EmbeddedStartResult | string): string[] {
  const lines = ["## Start and idle memory: the embedded default (PGlite) against PostgreSQL", ""];
  if (typeof result === "string") return [...lines, `- ${result}`, ""];
  const row = (name: string, f: StartFigures) => `| ${name} | ${figure(f.healthyMs, " ms")} | ${figure(f.cpuMs, " ms")} | ${figure(f.idleRssMb, " MB")} | ${figure(f.peakRssMb, " MB")} |`;
  lines.push(
    `\`npm run serve\` exactly as package.json runs it (the built host on plain node, production, \`MALLOC_ARENA_MAX=2\`, \`--max-semi-space-size=8\`), ${result.rounds} interleaved rounds: a new DATA_DIR (PGlite makes its database, migrations and the job queue's schema run, every job runs once), ` +
      "the same directory started again, then a new PostgreSQL database. Healthy is the first 200 of `/api/health` polled every 20 ms from spawn; CPU is the process's at that moment (all threads); idle RSS 10 s later with no requests; peak is VmHWM. " +
      `Medians (lowest–highest). Load average before each round: ${result.loads.join(", ")}.`,
    "",
    "| start | healthy after | CPU until healthy | idle RSS | peak RSS |",
    "|---|---|---|---|---|",
    row("embedded (PGlite), new DATA_DIR", result.pgliteFresh),
    row("embedded (PGlite), restart", result.pgliteRestart),
    row("PostgreSQL, new database", result.postgresFresh),
    "",
    `Budgets on the new DATA_DIR: idle RSS < 250 MB: ${verdict(result.pgliteFresh.idleRssMb.median < 250)}; healthy < 5 s on 2 cores: ${verdict(result.pgliteFresh.healthyMs.median < 5000)}` +
      ` (on a loaded host wall time stretches with the load; the CPU until healthy is the figure that does not: ${result.pgliteFresh.cpuMs.median} ms against PostgreSQL's ${result.postgresFresh.cpuMs.median} ms).`,
    "",
  );
  return lines;
}

export interface IssueFigures {
  serving?: ServingResult[];
  revalidation?: RevalidationResult[];
  accel?: AccelRun[] | string;
  smallUploads?: SmallUploadRun[];
  uploads?: UploadResult | string;
  embeddedStart?: EmbeddedStartResult | string;
}

/** Every figure of issue 41 in one table: what Stash did, against what, the ratio and its verdict. */
export function renderSummary(figures: IssueFigures): string[] {
  const rows: string[] = [];
  for (const r of figures.serving ?? []) {
    const budget = SERVING_BUDGETS[r.size]?.nginx;
    rows.push(
      `| /f/ GET ${r.size}, Stash alone | ${median(r.perSecond.stash)} req/s, ${r.stashCpuUs} µs CPU | nginx ${median(r.perSecond.nginx)} req/s, ${r.nginxCpuUs} µs | ${spread(r.roundRatiosVsNginx)} | ${budget ? `≥ ${budget}: ${verdict(median(r.roundRatiosVsNginx) >= budget)}` : "—"} |`,
    );
  }
  for (const r of figures.revalidation ?? []) {
    rows.push(`| ${r.kind === "HEAD" ? "HEAD" : "304"} 10 KB, CPU per request | ${r.stashCpuUs} µs | nginx ${r.nginxCpuUs} µs | ${round(r.stashCpuUs / Math.max(r.nginxCpuUs, 1))}× the CPU | < 60 µs: ${verdict(r.stashCpuUs < 60)} |`);
  }
  if (Array.isArray(figures.accel)) {
    for (const r of figures.accel) {
      rows.push(
        `| /f/ GET ${r.size} through nginx → Stash → nginx | ${median(r.accelPerSecond)} req/s, ${round(r.accelCpuUs.nginx + r.accelCpuUs.stash, 1)} µs CPU | nginx direct ${median(r.directPerSecond)} req/s, ${r.directCpuUs} µs | ${spread(r.ratios)} | ≥ ${r.budget}: ${verdict(median(r.ratios) >= r.budget)} |`,
      );
    }
  }
  for (const r of figures.smallUploads ?? []) {
    rows.push(
      `| upload ${r.file} c=${r.concurrency} | ${r.stash.perSecond}/s, ${r.stash.cpuMsPerUpload} ms CPU | bare busboy${r.file.includes("webp") ? " + same sharp work" : " + fsync"} ${r.reference.perSecond}/s, ${r.reference.cpuMsPerUpload} ms | ${r.ratio} (${r.ratioRange[0]}–${r.ratioRange[1]}) | ≥ ${r.budget}: ${verdict(r.ratio >= r.budget)} |`,
    );
  }
  const c8 = (figures.smallUploads ?? []).filter((r) => r.concurrency === 8);
  if (c8.length) {
    const peak = Math.max(...c8.map((r) => r.peakRssMb));
    rows.push(`| RSS during small uploads at c=8 | peak ${peak} MB | — | — | < 300 MB: ${verdict(peak < 300)} |`);
  }
  if (figures.uploads && typeof figures.uploads !== "string") {
    rows.push(`| RSS during 20 × 50 MB uploads | peak ${figures.uploads.peakRssMb} MB (${figures.uploads.megabytesPerSecond} MB/s) | — | — | < 300 MB: ${verdict(figures.uploads.peakRssMb < 300)} |`);
  }
  const start = figures.embeddedStart;
  if (start && typeof start !== "string") {
    const pg = start.postgresFresh;
    const lite = start.pgliteFresh;
    rows.push(
      `| idle RSS, PostgreSQL | ${pg.idleRssMb.median} MB, healthy after ${pg.healthyMs.median} ms (${pg.cpuMs.median} ms CPU) | — | — | — |`,
      `| idle RSS, embedded default (PGlite), new DATA_DIR | ${lite.idleRssMb.median} MB, peak ${lite.peakRssMb.median} MB | PostgreSQL ${pg.idleRssMb.median} MB | ${round(lite.idleRssMb.median / pg.idleRssMb.median)}× | < 250 MB: ${verdict(lite.idleRssMb.median < 250)} |`,
      `| healthy after, embedded default, new DATA_DIR | ${lite.healthyMs.median} ms (${lite.cpuMs.median} ms CPU) | PostgreSQL ${pg.healthyMs.median} ms (${pg.cpuMs.median} ms CPU) | ${round(lite.healthyMs.median / pg.healthyMs.median)}× | < 5 s: ${verdict(lite.healthyMs.median < 5000)} |`,
    );
  }
  if (!rows.length) return [];
  return ["## Issue 41's figures", "", "| figure | Stash | reference | ratio, median (range) | budget |", "|---|---|---|---|---|", ...rows, ""];
}

/**
 * bench/RESULTS.md keeps every run, newest first, each under its date (decision 122). `run` is this
 * run's markdown with `## ` section headings; they become `### ` under the run's own heading.
 */
export function writeResultsHistory(file: string, heading: string, run: string): void {
  const intro = [
    "# Bench results",
    "",
    "Every `npm run bench` adds its figures here under the date it ran, newest first; earlier runs stay as they were written. " +
      "How the bench measures and how to reproduce a figure: [docs/performance.md](../docs/performance.md); " +
      "what each tuning step changed, thread by thread: [PERFORMANCE-NOTES.md](PERFORMANCE-NOTES.md).",
    "",
  ].join("\n");
  const previous = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
  const firstRun = previous.indexOf("\n## ");
  const older = firstRun === -1 ? "" : previous.slice(firstRun + 1);
  const body = run.replace(/^## /gm, "### ");
  fs.writeFileSync(file, `${intro}\n## ${heading}\n\n${body.trim()}\n\n${older}`.trimEnd() + "\n");
}
