import { afterAll, beforeAll, describe, expect } from "vitest";
import { evaluateLogAlerts } from "../../app/services/logs/log-alerts.server.ts";
import { deliverLogForwards } from "../../app/services/logs/log-forwards.server.ts";
import { postForm, readToast } from "../helpers/auth.ts";
import { startDiscordWebhookStandIn, type DiscordWebhookStandIn } from "../helpers/discord-webhooks.ts";
import { stashTest } from "../helpers/fixtures.ts";
import { jsonPost, ownerWithLogKey } from "../helpers/logs.ts";
import { waitForOutboxMail } from "../helpers/mail.ts";
import type { TestServer } from "../helpers/server.ts";
import type { ServerId } from "../../app/lib/ids.ts";

let discord: DiscordWebhookStandIn;
const test = stashTest(() => ({ DISCORD_API_BASE: discord.apiBase }));

beforeAll(async () => {
  discord = await startDiscordWebhookStandIn();
});
afterAll(async () => {
  await discord.close();
});

async function datasetId(server: TestServer, serverId: ServerId, name: string): Promise<string> {
  return (await server.ctx.db.selectFrom("log_datasets").select("id").where("server_id", "=", serverId).where("name", "=", name).executeTakeFirstOrThrow()).id;
}

const MINUTE = 60_000;

/** Entries posted to the script API as a server's resource does, into `dataset`. */
function sendLogs(server: TestServer, secret: string, body: unknown, dataset: string) {
  return server.request("/api/logs", jsonPost(body, { "x-api-key": secret, "X-Fivemanage-Dataset": dataset }));
}

/** The Logs page's "add alert" form, with its fields as the browser sends them when left empty. */
function addAlert(server: TestServer, cookie: string, fields: Record<string, string>) {
  return postForm(server, "/logs", { intent: "add-alert", minLevel: "trace", resource: "", contains: "", threshold: "", windowMinutes: "", cooldownMinutes: "0", ...fields }, { cookie });
}

describe("log forwarding and alerts", () => {
  test("forwards matching entries to Discord in order, in messages of at most 10 embeds, waiting out 429s and 502s without losing one", { timeout: 60_000 }, async ({ server }) => {
    const { owner, serverId, secret } = await ownerWithLogKey(server, "Forward RP");
    expect((await server.request("/api/logs", jsonPost({ message: "dataset made" }, { "x-api-key": secret, "X-Fivemanage-Dataset": "admin" }))).status).toBe(200);
    const admin = await datasetId(server, serverId, "admin");

    // Only Discord webhook URLs: an internal address is refused and nothing is saved.
    const refused = await postForm(server, "/logs", { intent: "add-forward", datasetId: admin, webhookUrl: "http://169.254.169.254/latest/meta-data", minLevel: "warn" }, { cookie: owner.cookie });
    expect(refused.status).toBe(400);
    expect(await server.ctx.db.selectFrom("log_forwards").select("id").execute()).toEqual([]);
    const added = await postForm(server, "/logs", { intent: "add-forward", datasetId: admin, webhookUrl: discord.webhookUrl("111"), minLevel: "warn", resource: "", contains: "" }, { cookie: owner.cookie });
    expect(added.status).toBe(200);
    expect(readToast(added)).toMatchObject({ title: "Forward added" });

    discord.rateLimitNext(2, 0.3);
    const entries = Array.from({ length: 25 }, (_, i) => ({ level: i % 12 === 5 ? "info" : "warn", message: `Admin action ${String(i).padStart(2, "0")}`, resource: "txAdmin" }));
    expect((await server.request("/api/logs", jsonPost(entries, { "x-api-key": secret, "X-Fivemanage-Dataset": "admin" }))).status).toBe(200);
    const wanted = entries.filter((e) => e.level === "warn").map((e) => e.message);
    expect(wanted).toHaveLength(23);

    const delivered = () => discord.messages.filter((m) => m.webhook === "111").flatMap((m) => (m.body.embeds ?? []).map((e) => e.description));
    await expect
      .poll(
        async () => {
          await deliverLogForwards(server.ctx);
          return delivered().length;
        },
        { timeout: 20_000, interval: 200 },
      )
      .toBe(23);
    expect(delivered()).toEqual(wanted);
    const posts = discord.messages.filter((m) => m.webhook === "111");
    expect(posts.every((m) => m.wait && (m.body.embeds?.length ?? 0) <= 10)).toBe(true);
    const statuses = discord.requests.filter((r) => r.webhook === "111");
    expect(statuses.filter((r) => r.status === 429)).toHaveLength(2);
    // Each retry after a 429 came no sooner than Discord's retry_after.
    for (let i = 1; i < statuses.length; i++) if (statuses[i - 1]!.status === 429) expect(statuses[i]!.at - statuses[i - 1]!.at).toBeGreaterThanOrEqual(280);
    expect(await server.ctx.db.selectFrom("log_forward_queue").select("id").execute()).toEqual([]);

    // Discord down for a moment: the entry waits and goes once it is back.
    discord.failNext(1);
    expect((await server.request("/api/logs", jsonPost({ level: "error", message: "Ban issued", resource: "txAdmin" }, { "x-api-key": secret, "X-Fivemanage-Dataset": "admin" }))).status).toBe(200);
    await expect
      .poll(
        async () => {
          await deliverLogForwards(server.ctx);
          return delivered().at(-1);
        },
        { timeout: 20_000, interval: 250 },
      )
      .toBe("Ban issued");
    expect(discord.requests.filter((r) => r.webhook === "111" && r.status === 502)).toHaveLength(1);
  });

  test("alerts fire on the edge: a heartbeat that stops, more than N in a window (by e-mail), any match once per burst", { timeout: 60_000 }, async ({ server }) => {
    const { owner, serverId, secret } = await ownerWithLogKey(server, "Alert RP");
    const send = (body: unknown, dataset: string) => sendLogs(server, secret, body, dataset);
    expect((await send({ message: "tick", resource: "heartbeat" }, "system")).status).toBe(200);
    expect((await send({ message: "started", level: "info" }, "economy")).status).toBe(200);
    const system = await datasetId(server, serverId, "system");
    const economy = await datasetId(server, serverId, "economy");
    const alert = (fields: Record<string, string>) => addAlert(server, owner.cookie, fields);
    expect((await alert({ name: "Heartbeat", datasetId: system, kind: "absence", resource: "heartbeat", windowMinutes: "1", channel: "discord", target: discord.webhookUrl("222") })).status).toBe(200);
    expect((await alert({ name: "Money spam", datasetId: economy, kind: "count", minLevel: "error", threshold: "3", windowMinutes: "5", channel: "email", target: "ops@example.com" })).status).toBe(200);
    expect((await alert({ name: "Robbery", datasetId: economy, kind: "match", contains: "robbery", channel: "discord", target: discord.webhookUrl("333") })).status).toBe(200);
    expect((await alert({ name: "Bad", datasetId: economy, kind: "match", channel: "email", target: "not-an-address" })).status).toBe(400);

    const t0 = Date.now();
    const at = (minutes: number) => new Date(t0 + minutes * MINUTE);
    const hooks = (id: string) => discord.messages.filter((m) => m.webhook === id).map((m) => m.body.content ?? "");

    // The heartbeat stops: one alert, not one a minute while it stays silent.
    expect((await evaluateLogAlerts(server.ctx, at(2))).fired).toEqual(["Heartbeat"]);
    expect(hooks("222")).toEqual([expect.stringContaining('Alert "Heartbeat": no matching entries for 1 minutes')]);
    expect((await evaluateLogAlerts(server.ctx, at(3))).fired).toEqual([]);
    // It beats again (re-armed), then stops again: a second alert.
    expect((await send({ message: "tick", resource: "heartbeat", timestamp: at(3.5).toISOString() }, "system")).status).toBe(200);
    expect((await evaluateLogAlerts(server.ctx, at(4))).fired).toEqual([]);
    expect((await evaluateLogAlerts(server.ctx, at(6))).fired).toEqual(["Heartbeat"]);
    expect(hooks("222")).toHaveLength(2);

    // Four errors in five minutes is more than three: an e-mail.
    const errors = Array.from({ length: 4 }, (_, i) => ({ level: "error", message: `Negative balance ${i}`, timestamp: at(6.2).toISOString() }));
    expect((await send(errors, "economy")).status).toBe(200);
    expect((await evaluateLogAlerts(server.ctx, at(6.5))).fired).toEqual(["Money spam"]);
    const mail = await waitForOutboxMail(server.dataDir, "ops@example.com", "Money spam");
    expect(mail.body).toContain("4 matching entries in 5 minutes (more than 3)");

    // A robbery burst fires once; the next check without new matches re-arms; a new one fires again.
    expect((await send([{ message: "Fleeca robbery started" }, { message: "Pacific robbery started" }].map((e) => ({ ...e, timestamp: at(7).toISOString() })), "economy")).status).toBe(200);
    expect((await evaluateLogAlerts(server.ctx, at(7.5))).fired).toEqual(["Robbery"]);
    expect((await evaluateLogAlerts(server.ctx, at(8))).fired).toEqual([]);
    expect((await send({ message: "Jewelry robbery started", timestamp: at(8.5).toISOString() }, "economy")).status).toBe(200);
    expect((await evaluateLogAlerts(server.ctx, at(9))).fired).toEqual(["Robbery"]);
    expect(hooks("333")).toEqual([expect.stringContaining("2 matching entries"), expect.stringContaining("1 matching entry")]);

    const page = (await (await server.request("/logs", { headers: { Cookie: owner.cookie } })).text()).replace(/<!-- -->/g, "");
    expect(page).toContain("Heartbeat");
    expect(page).toContain("Money spam");
  });

  test("a check that finishes late (slow Discord, two instances) does not undo a later one, and a failed send is retried", { timeout: 60_000 }, async ({ server }) => {
    const { owner, serverId, secret } = await ownerWithLogKey(server, "Race RP");
    const send = (body: unknown, dataset: string) => sendLogs(server, secret, body, dataset);
    expect((await send({ message: "tick", resource: "heartbeat" }, "system")).status).toBe(200);
    expect((await send({ message: "started" }, "economy")).status).toBe(200);
    const alert = (fields: Record<string, string>) => addAlert(server, owner.cookie, { windowMinutes: "1", ...fields });
    expect((await alert({ name: "Heartbeat", datasetId: await datasetId(server, serverId, "system"), kind: "absence", resource: "heartbeat", channel: "discord", target: discord.webhookUrl("444") })).status).toBe(200);
    const t0 = Date.now();
    const at = (minutes: number) => new Date(t0 + minutes * MINUTE);

    // The check of minute 2 finds the heartbeat gone and posts, but Discord is slow to answer.
    const held = discord.holdNext();
    const late = evaluateLogAlerts(server.ctx, at(2));
    await held.arrived;
    // Meanwhile the heartbeat comes back and another instance checks minute 3: all is well, re-armed.
    expect((await send({ message: "tick", resource: "heartbeat", timestamp: at(2.5).toISOString() }, "system")).status).toBe(200);
    expect((await evaluateLogAlerts(server.ctx, at(3))).fired).toEqual([]);
    held.release();
    expect((await late).fired).toEqual(["Heartbeat"]);
    // The late answer must not mark the alert as still firing: when the heartbeat stops again, it alerts.
    expect((await evaluateLogAlerts(server.ctx, at(4.6))).fired).toEqual(["Heartbeat"]);
    expect(discord.messages.filter((m) => m.webhook === "444")).toHaveLength(2);

    // A send Discord refuses (502) fires nothing and is retried with the same entries at the next check.
    expect((await alert({ name: "Robbery", datasetId: await datasetId(server, serverId, "economy"), kind: "match", contains: "robbery", channel: "discord", target: discord.webhookUrl("555") })).status).toBe(200);
    expect((await send({ message: "Fleeca robbery started", timestamp: at(4.8).toISOString() }, "economy")).status).toBe(200);
    discord.failNext(1);
    expect((await evaluateLogAlerts(server.ctx, at(5))).fired).toEqual([]);
    expect((await evaluateLogAlerts(server.ctx, at(5.5))).fired).toEqual(["Robbery"]);
    expect(discord.messages.filter((m) => m.webhook === "555").map((m) => m.body.content)).toEqual([expect.stringContaining("1 matching entry")]);
  });
});
