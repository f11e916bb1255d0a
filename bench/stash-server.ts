/**
 * Child process of the bench: a production Stash on a loopback port with files seeded through the
 * real services. Prints one JSON line describing what it serves, then runs until killed.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { Readable } from "node:stream";
import { createApiKey } from "../app/services/api-keys/keys.server.ts";
import { loadConfig } from "../app/services/platform/env.server.ts";
import { DEFAULT_FILE_TYPES } from "../app/lib/file-types.ts";
import { createServer } from "../app/services/servers/servers.server.ts";
import { createUser } from "../app/services/accounts/users.server.ts";
import { createSession, sessionCookieName } from "../app/services/accounts/sessions.server.ts";
import { startServer, type StartedServer } from "../server.ts";
import { findPersonalTeam } from "../app/services/teams/teams.server.ts";
import type { ServerId, TeamId } from "../app/lib/ids.ts";

const dataDir = process.env.BENCH_DATA_DIR!;
const config = loadConfig({
  NODE_ENV: "production",
  HOST: "127.0.0.1",
  PORT: "0",
  DATA_DIR: dataDir,
  LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "info",
  MAX_UPLOAD_MB: "64",
  ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
  // The compose topology: nginx in front sends the bytes (bench/accel.ts).
  ...(process.env.BENCH_ACCEL_PREFIX ? { ACCEL_REDIRECT_PREFIX: process.env.BENCH_ACCEL_PREFIX } : {}),
});
const server = await startServer({ config, inMemoryDb: !config.DATABASE_URL, handleSignals: true });

async function seed(started: StartedServer, ownerId: TeamId, serverId: ServerId, name: string, bytes: Buffer, mimeType: string) {
  const storageKey = `${serverId}/bench/${name}`;
  const put = await started.ctx.blobs.put(storageKey, Readable.from([bytes]));
  await started.ctx.db
    .insertInto("files")
    .values({
      server_id: serverId,
      team_id: ownerId,
      storage_key: storageKey,
      filename: name,
      original_filename: name,
      category: "bench",
      mime_type: mimeType,
      size_bytes: put.size,
      sha256: put.sha256,
      is_public: true,
      metadata: "{}",
    })
    .execute();
  return { url: `/f/${storageKey}`, key: storageKey };
}

const user = await createUser(server.ctx.db, { email: "bench@example.com", verified: true });
const teamId = (await findPersonalTeam(server.ctx.db, user.id))!;
// The upload bench sends incompressible PDF-headed bytes (no media processing to measure); PDFs are
// one tick away from the defaults in the portal, so the bench server allows them.
const gameServer = await createServer(server.ctx.db, { teamId: teamId, name: "Bench RP", maxFileSizeMb: 64, allowedFileTypes: [...DEFAULT_FILE_TYPES, "pdf"] });
const small = await seed(server, teamId, gameServer.id, "small.bin", randomBytes(10 * 1024), "application/octet-stream");
const medium = await seed(server, teamId, gameServer.id, "medium.bin", randomBytes(200 * 1024), "application/octet-stream");
const large = await seed(server, teamId, gameServer.id, "large.bin", randomBytes(1024 * 1024), "application/octet-stream");
const { secret: apiKey } = await createApiKey(server.ctx.db, { serverId: gameServer.id, teamId: teamId, name: "bench", permissions: ["upload", "read"] });
// The small-upload bench measures the upload path, not the per-server rate limit: a business plan and
// many servers, each with its own key, keep the limit (240 uploads a minute per server) out of the way.
await server.ctx.db.updateTable("subscriptions").set({ tier: "business", status: "active" }).where("team_id", "=", teamId).execute();
const uploadKeys: string[] = [];
// The log ingest bench sends from many servers too, each within its plan's requests per minute.
const logKeys: string[] = [];
// 100 servers: the small-upload bench's warm-up and rounds send ~10,000 PDFs within a minute.
for (let i = 0; i < 100; i++) {
  const target = await createServer(server.ctx.db, { teamId: teamId, name: `Upload RP ${i}`, allowedFileTypes: [...DEFAULT_FILE_TYPES, "pdf"] });
  uploadKeys.push((await createApiKey(server.ctx.db, { serverId: target.id, teamId: teamId, name: "bench", permissions: ["upload"] })).secret);
  if (i < 40) logKeys.push((await createApiKey(server.ctx.db, { serverId: target.id, teamId: teamId, name: "bench logs", permissions: ["logs:write"] })).secret);
}
// The owner's session, for the live tail of the Logs page.
const ownerCookie = `${sessionCookieName(server.ctx.config)}=${(await createSession(server.ctx.db, { userId: user.id, ip: "127.0.0.1", userAgent: "stash-bench" })).token}`;
const shots: string[] = [];
for (const file of (process.env.BENCH_SHOTS ?? "").split(",").filter(Boolean)) {
  shots.push((await seed(server, teamId, gameServer.id, file.split("/").pop()!, fs.readFileSync(file), "image/png")).url);
}
process.stdout.write(
  `${JSON.stringify({ bench: { port: server.port, pid: process.pid, apiKey, uploadKeys, logKeys, ownerCookie, small, medium, large, shots, userId: user.id, serverId: gameServer.id, filesRoot: `${dataDir}/files` } })}\n`,
);
