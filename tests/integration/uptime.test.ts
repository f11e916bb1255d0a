import { describe, expect } from "vitest";
import { recordStatusSample, uptimeHistory } from "../../app/services/maintenance/uptime.server.ts";
import { test } from "../helpers/fixtures.ts";
import type { TestServer } from "../helpers/server.ts";

let server: TestServer;
test.beforeAll(async ({ server: started }) => {
  server = started;
});

const SLOT = 5 * 60_000;

describe("uptime history", () => {
  test("counts up slots per day from the first record, gaps and failed checks as down", async () => {
    // Far from the real clock, so the samples the running server takes do not mix in.
    const now = new Date("2030-01-15T12:00:00Z");
    const start = Date.parse("2030-01-14T00:00:00Z");
    const rows = [];
    for (let t = start; t < now.getTime(); t += SLOT) {
      const gap = t >= Date.parse("2030-01-14T03:00:00Z") && t < Date.parse("2030-01-14T04:00:00Z");
      if (gap) continue;
      const failed = t >= Date.parse("2030-01-15T06:00:00Z") && t < Date.parse("2030-01-15T06:30:00Z");
      rows.push({ checked_at: new Date(t), ok: !failed, storage_ok: !failed, scanner_ok: null });
    }
    await server.ctx.db.insertInto("status_samples").values(rows).execute();

    const history = await uptimeHistory(server.ctx.db, now);
    expect(history.days).toHaveLength(30);
    expect(history.days.slice(0, 28).every((d) => d.percent === null)).toBe(true);
    expect(history.days[28]).toEqual({ day: "2030-01-14", percent: ((288 - 12) / 288) * 100 });
    expect(history.days[29]).toEqual({ day: "2030-01-15", percent: ((144 - 6) / 144) * 100 });
    expect(history.percent).toBeCloseTo(((276 + 138) / 432) * 100, 6);
  });

  test("a sample is one row per five-minute slot, and /status shows thirty days", async () => {
    const at = new Date("2031-06-01T10:02:00Z");
    await recordStatusSample(server.ctx, at);
    await recordStatusSample(server.ctx, new Date("2031-06-01T10:04:59Z"));
    const rows = await server.ctx.db.selectFrom("status_samples").selectAll().where("checked_at", ">=", new Date("2031-06-01T00:00:00Z")).execute();
    expect(rows).toEqual([{ checked_at: new Date("2031-06-01T10:00:00Z"), ok: true, storage_ok: true, scanner_ok: null }]);

    const before = (await (await server.request("/status")).text()).replace(/<!-- -->/g, "");
    expect(before.match(/data-testid="uptime-day"/g)).toHaveLength(30);
    expect(before).toMatch(/data-testid="uptime-percent"[^>]*>No records yet</);
    await recordStatusSample(server.ctx);
    const after = (await (await server.request("/status")).text()).replace(/<!-- -->/g, "");
    expect(after).toMatch(/data-testid="uptime-percent"[^>]*>100% uptime</);
  });
});
