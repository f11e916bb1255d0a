/**
 * Import bench (DESIGN.md "Performance budgets": ≥ 50 files/s from loopback sources, RSS growth
 * < 100 MB for 10,000 files; refresh calls at most 50 links each). Not a timed test: run
 * `node --expose-gc --import tsx bench/imports.ts` (BENCH_IMPORT_FILES to change the count,
 * BENCH_DATABASE_URL for PostgreSQL, BENCH_IMPORT_WEBP=false to keep JPEGs as they are). A list of 10,000 expired Discord links (~100 KB JPEGs) is imported with a bot token
 * by the real job in this process, through the real upload pipeline with a new server's defaults;
 * Discord is a child process on loopback. The figures go into bench/RESULTS.md under the run's date.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createAppContext } from "../app/services/app-context.server.ts";
import { loadConfig } from "../app/services/platform/env.server.ts";
import { createUser } from "../app/services/accounts/users.server.ts";
import { findPersonalTeam } from "../app/services/teams/teams.server.ts";
import { createServer } from "../app/services/servers/servers.server.ts";
import { createImport } from "../app/services/imports/create-import.server.ts";
import { getImport } from "../app/services/imports/imports.server.ts";
import { runImportJobs } from "../app/services/imports/import-runner.server.ts";
import { startChild } from "./lib.ts";
import { writeResultsHistory } from "./report.ts";

const FILES = Number(process.env.BENCH_IMPORT_FILES ?? 10_000);
const WARM_UP = 100;
const CHANNEL = "1012345678901234567";
const load = () => os.loadavg().map((n) => n.toFixed(1)).join(" / ");

const startedAt = new Date();
const work = fs.mkdtempSync(path.join(os.tmpdir(), "stash-bench-imports-"));
const standIn = await startChild<{ port: number }>(process.execPath, ["--import", "tsx", "bench/import-standin.ts"], {}, path.join(work, "standin.log"));
const origin = `http://127.0.0.1:${standIn.info.port}`;
const config = loadConfig({
  NODE_ENV: "production",
  DATA_DIR: path.join(work, "data"),
  LOG_LEVEL: "warn",
  JOBS_MODE: "manual",
  DISCORD_API_BASE: `${origin}/api`,
  DISCORD_CDN_BASE: origin,
  ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
});
const ctx = await createAppContext(config, { inMemoryDb: !config.DATABASE_URL });

const user = await createUser(ctx.db, { email: "bench-imports@example.com", verified: true });
const teamId = (await findPersonalTeam(ctx.db, user.id))!;
await ctx.db.updateTable("subscriptions").set({ tier: "business", status: "active" }).where("team_id", "=", teamId).execute();

/** A list of `count` expired Discord links, attachment ids from `first`. */
function links(count: number, first: bigint): string[] {
  return Array.from({ length: count }, (_, i) => {
    const id = first + BigInt(i) * 4194304n;
    return `https://cdn.discordapp.com/attachments/${CHANNEL}/${id}/photo_${i}.jpg?ex=65f1a2b3&is=65f05133&hm=3f9c0a5e1b7d2c4e&`;
  });
}

/** BENCH_IMPORT_WEBP=false: the server keeps JPEGs as they are (a new server converts them to WebP). */
const convertToWebp = process.env.BENCH_IMPORT_WEBP !== "false";

async function importList(name: string, urls: string[]) {
  const server = await createServer(ctx.db, { teamId, name });
  if (!convertToWebp) await ctx.db.updateTable("servers").set({ convert_to_webp: false }).where("id", "=", server.id).execute();
  const id = await createImport(ctx, { teamId, serverId: server.id, userId: user.id }, { source: "urls", urls, botToken: "bench-bot-token" });
  const started = performance.now();
  await runImportJobs(ctx, new AbortController().signal, { lingerMs: 0, only: id });
  return { seconds: (performance.now() - started) / 1000, view: await getImport(ctx.db, teamId, id) };
}

console.log(`# Imports bench, ${new Date().toISOString()}, ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, load ${load()}`);
// Sharp, libvips and the code paths warm up on a small import first; growth is measured from after it.
await importList("Warm-up RP", links(WARM_UP, 1187654321000000000n));
global.gc?.();
const rssBefore = process.memoryUsage().rss;
let rssPeak = rssBefore;
const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 200);
const loadBefore = load();
const cpuBefore = process.cpuUsage();
const run = await importList("Bench RP", links(FILES, 1187654321100000000n));
const cpu = process.cpuUsage(cpuBefore);
clearInterval(sampler);
const rssAfter = process.memoryUsage().rss;
const stats = (await (await fetch(`${origin}/stats`)).json()) as { refreshCalls: number; refreshedUrls: number; maxBatch: number; cdnRequests: number; imageBytes: number };
await ctx.close();
await standIn.stop();
fs.rmSync(work, { recursive: true, force: true });

const mb = (bytes: number) => (bytes / (1024 * 1024)).toFixed(1);
const filesPerSecond = run.view.progress.stored / run.seconds;
const growth = (rssPeak - rssBefore) / (1024 * 1024);
const cpuMs = (cpu.user + cpu.system) / 1000;
const lines = [
  `- ${FILES.toLocaleString("en-GB")} expired Discord links to ~${Math.round(stats.imageBytes / 1024)} KB JPEGs, one import with a bot token, ${config.DATABASE_URL ? "PostgreSQL" : "PGlite"}, ${convertToWebp ? "a new server's defaults (WebP conversion, metadata stripped, thumbnails)" : "WebP conversion off (metadata stripped, thumbnails)"}: ${run.view.state}, ${run.view.progress.stored} stored, ${run.view.progress.failed} failed, in ${run.seconds.toFixed(1)} s`,
  `- throughput: ${filesPerSecond.toFixed(1)} files/s — budget ≥ 50 files/s: ${filesPerSecond >= 50 ? "meets" : "misses"}`,
  `- CPU of this process (the job and the upload pipeline${config.DATABASE_URL ? "; PostgreSQL runs apart" : ", and the embedded database"}): ${(cpuMs / run.view.progress.stored).toFixed(1)} ms per file, ${(cpuMs / 1000 / run.seconds).toFixed(2)} cores busy on average — at most ${((1000 / (cpuMs / run.view.progress.stored)) * os.cpus().length).toFixed(0)} files/s on ${os.cpus().length} idle cores`,
  `- RSS: ${mb(rssBefore)} MB after the warm-up, peak ${mb(rssPeak)} MB, ${mb(rssAfter)} MB at the end — growth ${growth.toFixed(1)} MB; budget < 100 MB: ${growth < 100 ? "meets" : "misses"}`,
  `- refresh-urls: ${stats.refreshCalls} calls for ${stats.refreshedUrls} links (the warm-up's included), at most ${stats.maxBatch} a call — budget ≤ 50: ${stats.maxBatch <= 50 ? "meets" : "misses"}`,
  `- load average before / after: ${loadBefore} → ${load()} (the machine is shared; figures move with it)`,
];
console.log(lines.join("\n"));
writeResultsHistory(
  "bench/RESULTS.md",
  `${startedAt.toISOString().slice(0, 16).replace("T", " ")} UTC — bench/imports.ts: ${FILES.toLocaleString("en-GB")} Discord links from loopback stand-ins`,
  `Run with \`node --expose-gc --import tsx bench/imports.ts\` on ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}.\n\n${lines.join("\n")}`,
);
