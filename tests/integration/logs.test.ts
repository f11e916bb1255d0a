import { brotliDecompressSync } from "node:zlib";
import { sql } from "kysely";
import { describe, expect } from "vitest";
import { HOUR_MS } from "../../app/lib/durations.ts";
import { ensureLogPartitions, listLogPartitions, partitionName, purgeLogEntries } from "../../app/services/logs/log-partitions.server.ts";
import { postForm, type SignedInUser } from "../helpers/auth.ts";
import { jsonPost as json, ownerWithLogKey } from "../helpers/logs.ts";
import { test } from "../helpers/fixtures.ts";
import { keepAliveClient } from "../helpers/keep-alive-client.ts";
import type { TestServer } from "../helpers/server.ts";

async function searchPage(server: TestServer, who: SignedInUser, query: string) {
  const html = (await (await server.request(`/logs?${query}`, { headers: { Cookie: who.cookie } })).text()).replace(/<!-- -->/g, "");
  return [...html.matchAll(/data-testid="log-message">([^<]*)</g)].map((m) => m[1]!.replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&amp;/g, "&"));
}


describe("logs", () => {
  test("every sender's shape lands over one keep-alive connection and the portal's search finds it", async ({ server }) => {
    const { owner, serverId, webhookSecret, secret } = await ownerWithLogKey(server, "Logs RP");
    const client = keepAliveClient(server.url);
    try {
      // fmsdk / Fivemanage: one object, key in Authorization, dataset in X-Fivemanage-Dataset.
      const single = await client.request("/api/logs", json({ level: "info", message: "Player paid 500 to Bank", resource: "qb-banking", metadata: { citizenid: "ABC123", amount: 500 } }, { Authorization: secret, "X-Fivemanage-Dataset": "economy" }));
      expect(single.status).toBe(200);
      expect(await single.json()).toMatchObject({ success: true, accepted: 1, datasets: ["economy"] });
      // ox_lib's fivemanage provider: an array to /api/logs/batch, expecting 200.
      const oxlib = await client.request("/api/logs/batch", json([{ level: "info", message: "ox_inventory: moved water x2", resource: "ox_inventory", metadata: { hostname: "Logs RP", service: "swapItems", source: 3, license: "license:abc" } }], { Authorization: secret, "User-Agent": "ox_lib" }));
      expect(oxlib.status).toBe(200);
      // Fivemanage v3: an array.
      expect((await client.request("/api/v3/logs", json([{ level: "warning", message: "Anticheat flagged speed", resource: "anticheat" }], { Authorization: secret }))).status).toBe(200);
      // Fivemerr: one object to /v1/logs.
      expect((await client.request("/v1/logs", json({ level: "error", message: "Fivemerr style failure", resource: "fivemerr-test" }, { Authorization: secret }))).status).toBe(200);
      // ox_lib's loki provider: Basic credentials whose password is the key, 204 expected.
      const ns = `${Date.now()}000000`;
      const loki = await client.request(
        "/loki/api/v1/push",
        json(
          { streams: [{ stream: { server: "Logs RP", resource: "ox_lib", event: "admin:kick" }, values: [[ns, JSON.stringify({ message: "Admin kicked player 12", reason: "RDM" })]] }] },
          { Authorization: `Basic ${Buffer.from(`stash:${secret}`).toString("base64")}` },
        ),
      );
      expect(loki.status).toBe(204);
      // JD_logs-style Discord webhook post: embeds, no files; Discord answers 204 without ?wait=true.
      const discord = await client.request(
        `/api/webhooks/${serverId}/${webhookSecret}`,
        json({ username: "JD Logs", embeds: [{ title: "Player Died", description: "Niko was killed by Roman", color: 16711680, fields: [{ name: "Weapon", value: "Pistol" }] }] }),
      );
      expect(discord.status).toBe(204);
      // Stash's own shape with {logs: [...]} and a timestamp in seconds.
      const own = await client.request("/api/logs", json({ logs: [{ message: "Server restart scheduled", level: "notice", timestamp: Date.now() / 1000 }] }, { "x-api-key": secret }));
      expect(own.status).toBe(200);
      expect(client.socketCount()).toBe(1);
    } finally {
      client.close();
    }

    expect(await searchPage(server, owner, "")).toEqual([
      "Server restart scheduled",
      "Player Died\nNiko was killed by Roman\nWeapon: Pistol",
      "Admin kicked player 12",
      "Fivemerr style failure",
      "Anticheat flagged speed",
      "ox_inventory: moved water x2",
      "Player paid 500 to Bank",
    ]);
    expect(await searchPage(server, owner, "dataset=economy")).toEqual(["Player paid 500 to Bank"]);
    expect(await searchPage(server, owner, "dataset=discord")).toEqual(["Player Died\nNiko was killed by Roman\nWeapon: Pistol"]);
    expect(await searchPage(server, owner, "level=error")).toEqual(["Player Died\nNiko was killed by Roman\nWeapon: Pistol", "Fivemerr style failure"]);
    expect(await searchPage(server, owner, "q=KICKED")).toEqual(["Admin kicked player 12"]);
    expect(await searchPage(server, owner, "meta=citizenid%3DABC123")).toEqual(["Player paid 500 to Bank"]);
    expect(await searchPage(server, owner, "resource=anticheat")).toEqual(["Anticheat flagged speed"]);
    const levels = await server.ctx.db.selectFrom("log_entries").select(["message", "level", "resource"]).execute();
    expect(levels.find((r) => r.message === "Anticheat flagged speed")?.level).toBe("warn");
    expect(levels.find((r) => r.message === "Admin kicked player 12")).toMatchObject({ level: "info", resource: "ox_lib" });
    expect(levels.find((r) => r.message.startsWith("Player Died"))).toMatchObject({ level: "error", resource: "JD Logs" });

    // Scripts and bots search through the API with the same filters, newest first, keyset-paged.
    const first = await server.request("/api/logs/search?limit=2", { headers: { "x-api-key": secret } });
    const page = (await first.json()) as { data: Array<{ message: string }>; next_cursor: string };
    expect(page.data.map((e) => e.message)).toEqual(["Server restart scheduled", "Player Died\nNiko was killed by Roman\nWeapon: Pistol"]);
    const second = (await (await server.request(`/api/logs/search?limit=2&cursor=${page.next_cursor}`, { headers: { "x-api-key": secret } })).json()) as { data: Array<{ message: string }> };
    expect(second.data.map((e) => e.message)).toEqual(["Admin kicked player 12", "Fivemerr style failure"]);
    // Counts toward the plan's volume are written once a second; flushUsage writes them now.
    await server.flushUsage();
    const usage = await server.ctx.db.selectFrom("usage_daily").select(sql<number>`sum(log_entries)::int`.as("n")).where("server_id", "=", serverId).executeTakeFirstOrThrow();
    expect(usage.n).toBe(7);
  });

  test("refusals say why and store nothing: no permission, too many, too large, bad metadata, past the month's volume", async ({ server }) => {
    const { owner, secret, serverId } = await ownerWithLogKey(server, "Strict RP");
    const uploadOnly = await ownerWithLogKey(server, "Uploads RP", ["upload"]);
    const count = async () => Number((await server.ctx.db.selectFrom("log_entries").select(sql<number>`count(*)::int`.as("n")).executeTakeFirstOrThrow()).n);
    const before = await count();

    const denied = await server.request("/api/logs", json({ message: "hi" }, { "x-api-key": uploadOnly.secret }));
    expect(denied.status).toBe(403);
    expect(await denied.json()).toMatchObject({ code: "permission_denied" });
    const tooMany = await server.request("/api/logs", json(Array.from({ length: 1001 }, (_, i) => ({ message: `m${i}` })), { "x-api-key": secret }));
    expect(tooMany.status).toBe(413);
    const huge = await server.request("/api/logs", json([{ message: "x".repeat(1024 * 1024) }, { message: "y".repeat(1024 * 1024) }], { "x-api-key": secret }));
    expect(huge.status).toBe(413);
    const badMeta = await server.request("/api/logs", json([{ message: "ok" }, { message: "bad", metadata: [1, 2] }], { "x-api-key": secret }));
    expect(badMeta.status).toBe(400);
    expect(((await badMeta.json()) as { error: string }).error).toContain("Entry 1: metadata must be a JSON object");
    expect((await server.request("/api/logs", json({ level: "info" }, { "x-api-key": secret }))).status).toBe(400);
    // Settings that name a dataset that is not one are a 404, not a database error.
    expect((await postForm(server, "/logs", { intent: "retention", datasetId: "not-a-uuid", days: "3" }, { cookie: owner.cookie })).status).toBe(404);
    expect((await postForm(server, "/logs", { intent: "add-forward", datasetId: "not-a-uuid", webhookUrl: "https://discord.com/api/webhooks/1/x" }, { cookie: owner.cookie })).status).toBe(404);
    expect((await server.request("/api/logs", json({ message: "old", timestamp: "2020-01-01T00:00:00Z" }, { "x-api-key": secret }))).status).toBe(400);
    expect((await server.request("/api/logs", { method: "POST", headers: { "x-api-key": secret, "Content-Type": "application/json" }, body: "{nope" })).status).toBe(400);
    expect(await count()).toBe(before);

    // The free plan's 100,000 entries a month: the last one fits, the next batch is refused whole.
    await server.ctx.db
      .insertInto("usage_daily")
      .values({ server_id: serverId, day: new Date().toISOString().slice(0, 10), log_entries: 99_999 })
      .onConflict((oc) => oc.columns(["server_id", "day"]).doUpdateSet({ log_entries: 99_999 }))
      .execute();
    // An instance reads a team's month from the counters at most once a second.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await server.request("/api/logs", json({ message: "the last one" }, { "x-api-key": secret }))).status).toBe(200);
    const over = await server.request("/api/logs", json([{ message: "a" }, { message: "b" }], { "x-api-key": secret }));
    expect(over.status).toBe(429);
    // Refused past the volume, a request naming a new dataset does not make it either.
    expect((await server.request("/api/logs", json({ message: "c" }, { "x-api-key": secret, "X-Fivemanage-Dataset": "overflow" }))).status).toBe(429);
    expect(await server.ctx.db.selectFrom("log_datasets").select("id").where("server_id", "=", serverId).where("name", "=", "overflow").execute()).toEqual([]);
    await server.flushUsage();
    const counted = await server.ctx.db.selectFrom("usage_daily").select(sql<number>`sum(log_entries)::int`.as("n")).where("server_id", "=", serverId).executeTakeFirstOrThrow();
    expect(counted.n).toBe(100_000);
    expect(((await over.json()) as { error: string }).error).toContain("100,000");
    expect(await count()).toBe(before + 1);
  });

  test("retention drops whole day partitions past the longest dataset's days and trims shorter datasets", async ({ server }) => {
    const { secret } = await ownerWithLogKey(server, "Retention RP");
    expect((await server.request("/api/logs", json({ message: "kept today" }, { "x-api-key": secret }))).status).toBe(200);
    const dataset = await server.ctx.db
      .selectFrom("log_datasets")
      .innerJoin("servers", "servers.id", "log_datasets.server_id")
      .select(["log_datasets.id", "log_datasets.retention_days"])
      .where("servers.name", "=", "Retention RP")
      .executeTakeFirstOrThrow();
    expect(dataset.retention_days).toBe(7);
    const now = new Date();
    const old = new Date(now.getTime() - 20 * 86_400_000);
    const recent = new Date(now.getTime() - 3 * 86_400_000);
    await ensureLogPartitions(server.ctx.db, old, old);
    await ensureLogPartitions(server.ctx.db, recent, recent);
    await server.ctx.db
      .insertInto("log_entries")
      .values([
        { ts: old, dataset_id: dataset.id, level: "info", message: "twenty days old", metadata: "{}" },
        { ts: recent, dataset_id: dataset.id, level: "info", message: "three days old", metadata: "{}" },
      ])
      .execute();
    // A second dataset keeping 2 days: its 3-day-old entry goes, the partition stays for the 7-day one.
    const short = await server.ctx.db.insertInto("log_datasets").values({ server_id: (await server.ctx.db.selectFrom("servers").select("id").where("name", "=", "Retention RP").executeTakeFirstOrThrow()).id, name: "chat", retention_days: 2 }).returning("id").executeTakeFirstOrThrow();
    await server.ctx.db.insertInto("log_entries").values({ ts: recent, dataset_id: short.id, level: "info", message: "chat three days old", metadata: "{}" }).execute();

    const result = await purgeLogEntries(server.ctx.db, now);
    expect(result.dropped).toEqual([partitionName(old)]);
    expect(result.deleted).toBe(1);
    const partitions = await listLogPartitions(server.ctx.db);
    expect(partitions).toContain(partitionName(recent));
    expect(partitions).not.toContain(partitionName(old));
    const left = await server.ctx.db.selectFrom("log_entries").select("message").where("dataset_id", "in", [dataset.id, short.id]).orderBy("ts").execute();
    expect(left.map((r) => r.message)).toEqual(["three days old", "kept today"]);
  });

  test("the portal exports a search as CSV and NDJSON, tails new entries live, and saves searches", async ({ server }) => {
    const { owner, secret } = await ownerWithLogKey(server, "Tail RP");
    const sent = await server.request(
      "/api/logs",
      json([
        { level: "error", message: "=cmd|' /C calc'!A0", resource: "exploit", metadata: { note: "a, \"quoted\" value" } },
        { level: "info", message: "Vehicle spawned", resource: "qb-vehicles", metadata: { plate: "STASH1" } },
      ], { "x-api-key": secret, "X-Fivemanage-Dataset": "admin" }),
    );
    expect(sent.status).toBe(200);

    const csv = await server.request("/logs/export?format=csv&dataset=admin", { headers: { Cookie: owner.cookie } });
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect(csv.headers.get("content-disposition")).toMatch(/attachment; filename="stash-logs-.*\.csv"/);
    const lines = (await csv.text()).trim().split("\n");
    expect(lines[0]).toBe("timestamp,server,dataset,level,resource,message,metadata");
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(',Tail RP,admin,info,qb-vehicles,Vehicle spawned,"{""plate"":""STASH1""}"');
    // A cell that would run as a spreadsheet formula is defused.
    expect(lines[2]).toContain(",exploit,'=cmd|' /C calc'!A0,");
    const ndjson = await (await server.request("/logs/export?format=ndjson&level=error", { headers: { Cookie: owner.cookie } })).text();
    expect(ndjson.trim().split("\n").map((l) => JSON.parse(l) as { message: string; dataset: string })).toEqual([expect.objectContaining({ message: "=cmd|' /C calc'!A0", dataset: "admin" })]);

    // Live tail: an entry received after the stream opened arrives as an event within a second or two.
    const controller = new AbortController();
    const tail = await fetch(`${server.url}/logs/tail?dataset=admin`, { headers: { Cookie: owner.cookie }, signal: controller.signal });
    expect(tail.headers.get("content-type")).toContain("text/event-stream");
    const reader = tail.body!.getReader();
    const decoder = new TextDecoder();
    let received = "";
    while (!received.includes("tail open")) received += decoder.decode((await reader.read()).value);
    const started = Date.now();
    // The other dataset's entry goes first: were the filter ignored, it would arrive before "Live one".
    expect((await server.request("/api/logs", json({ message: "Other dataset" }, { "x-api-key": secret }))).status).toBe(200);
    expect((await server.request("/api/logs", json({ message: "Live one", resource: "tail-test" }, { "x-api-key": secret, "X-Fivemanage-Dataset": "admin" }))).status).toBe(200);
    while (!received.includes("Live one")) received += decoder.decode((await reader.read()).value);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(received).toContain("event: entry");
    expect(received).not.toContain("Other dataset");
    controller.abort();

    // Saved searches keep the filters (not the page) and list on the page.
    const saved = await postForm(server, "/logs", { intent: "save-query", name: "Exploits", search: "level=error&dataset=admin&cursor=abc" }, { cookie: owner.cookie });
    expect(saved.status).toBe(200);
    const row = await server.ctx.db.selectFrom("log_saved_queries").select(["id", "query"]).where("name", "=", "Exploits").executeTakeFirstOrThrow();
    expect(row.query).toBe("dataset=admin&level=error");
    expect(await (await server.request("/logs", { headers: { Cookie: owner.cookie } })).text()).toContain(`href="/logs?dataset=admin&amp;level=error"`);
    expect((await postForm(server, "/logs", { intent: "save-query", name: "Nothing", search: "" }, { cookie: owner.cookie })).status).toBe(400);
    expect((await postForm(server, "/logs", { intent: "save-query", name: "Bad", search: "level=loud" }, { cookie: owner.cookie })).status).toBe(400);
    expect((await postForm(server, "/logs", { intent: "delete-query", id: row.id }, { cookie: owner.cookie })).status).toBe(200);
    expect(await server.ctx.db.selectFrom("log_saved_queries").select("id").where("name", "=", "Exploits").execute()).toEqual([]);
  });

  test("a full 10,000-entry export arrives whole and compressed", async ({ server }) => {
    const { owner, secret } = await ownerWithLogKey(server, "Export RP");
    for (let batch = 0; batch < 10; batch++) {
      const entries = Array.from({ length: 1000 }, (_, i) => ({ level: "info", message: `Vehicle ${batch * 1000 + i} spawned at Legion Square`, resource: "qb-vehicles", metadata: { plate: `STASH${i}` } }));
      expect((await server.request("/api/logs", json(entries, { "x-api-key": secret }))).status).toBe(200);
    }
    // The keep-alive client hands back the bytes as sent, compressed.
    const client = keepAliveClient(server.url);
    try {
      const answer = await client.request("/logs/export?format=csv", { headers: { Cookie: owner.cookie, "Accept-Encoding": "br" } });
      expect(answer.headers.get("content-encoding")).toBe("br");
      const sent = Buffer.from(await answer.arrayBuffer());
      const csv = brotliDecompressSync(sent).toString();
      const lines = csv.trim().split("\n");
      expect(lines).toHaveLength(10_001);
      expect(lines.filter((line) => line.includes("spawned at Legion Square"))).toHaveLength(10_000);
      // About a megabyte of CSV travels as a small fraction of it.
      expect(sent.length).toBeLessThan(csv.length / 5);
    } finally {
      client.close();
    }
  });

  test("the portal's From and To are UTC, the zone its times are shown in, whatever zone the host runs in", async ({ server }) => {
    const { owner, secret } = await ownerWithLogKey(server, "Zone RP");
    // Three entries an hour apart, a day ago, on the hour in UTC.
    const base = Math.floor((Date.now() - 24 * HOUR_MS) / HOUR_MS) * HOUR_MS;
    const entries = ["first hour", "second hour", "third hour"].map((message, i) => ({ level: "info", message, timestamp: new Date(base + i * HOUR_MS).toISOString() }));
    expect((await server.request("/api/logs", json(entries, { "x-api-key": secret }))).status).toBe(200);
    // What <input type="datetime-local"> sends: a wall-clock time without an offset.
    const wallClock = (ms: number) => new Date(ms).toISOString().slice(0, 16);
    const range = `from=${wallClock(base + HOUR_MS)}&to=${wallClock(base + 1.5 * HOUR_MS)}`;
    const zone = process.env.TZ;
    // A host set to New York would read those times five hours later than the UTC the portal shows.
    process.env.TZ = "America/New_York";
    try {
      expect(await searchPage(server, owner, range)).toEqual(["second hour"]);
      const api = await server.request(`/api/logs/search?${range}`, { headers: { "x-api-key": secret } });
      expect(((await api.json()) as { data: Array<{ message: string }> }).data.map((e) => e.message)).toEqual(["second hour"]);
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
    const html = await (await server.request("/logs", { headers: { Cookie: owner.cookie } })).text();
    expect(html).toContain("From (UTC)");
    expect(html).toContain("To (UTC)");
  });

  test("a key that only sends logs shows its calls on the key list", async ({ server }) => {
    const { owner, secret } = await ownerWithLogKey(server, "Quiet RP", ["logs:write"]);
    for (const message of ["one", "two", "three"]) expect((await server.request("/api/logs", json({ message }, { "x-api-key": secret }))).status).toBe(200);
    await server.flushUsage();
    const page = await (await server.request("/api-keys", { headers: { Cookie: owner.cookie } })).text();
    expect(page).toMatch(/>Logger<[\s\S]*?data-testid="api-key-calls">3 calls in 30 days</);
  });

  test("a NUL byte or half a surrogate pair a script sends in a message, resource or metadata is not answered with a 500", async ({ server }) => {
    const { secret, serverId } = await ownerWithLogKey(server, "Nul RP");
    const nul = String.fromCharCode(0);
    const sent = await server.request("/api/logs", json({ message: `bad${nul}byte`, resource: `res${nul}`, metadata: { [`k${nul}`]: `v${nul}`, list: [`a${nul}`] } }, { "x-api-key": secret }));
    expect(sent.status).toBe(200);
    const hook = await server.request(`/api/webhooks/${serverId}/${(await server.ctx.db.selectFrom("servers").select("webhook_secret").where("id", "=", serverId).executeTakeFirstOrThrow()).webhook_secret}`, json({ content: `kill${nul}feed`, username: `JD${nul}` }));
    expect(hook.status).toBe(204);
    // JSON may carry "\ud800" alone (a Lua string cut mid-character); it is stored as U+FFFD.
    const lone = await server.request("/api/logs", { method: "POST", headers: { "x-api-key": secret, "Content-Type": "application/json" }, body: '{"message":"cut \\ud83d","metadata":{"name":"\\udc00x"}}' });
    expect(lone.status).toBe(200);
    const rows = await server.ctx.db
      .selectFrom("log_entries as e")
      .innerJoin("log_datasets as d", "d.id", "e.dataset_id")
      .select(["e.message", "e.resource", "e.metadata"])
      .where("d.server_id", "=", serverId)
      .orderBy("e.id")
      .execute();
    expect(rows).toEqual([
      { message: "badbyte", resource: "res", metadata: { k: "v", list: ["a"] } },
      { message: "killfeed", resource: "JD", metadata: { source: "discord_webhook" } },
      { message: "cut \ufffd", resource: null, metadata: { name: "\ufffdx" } },
    ]);
  });
});
