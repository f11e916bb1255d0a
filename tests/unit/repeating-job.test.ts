import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { startRepeatingJob } from "../../app/services/repeating-job.server.ts";

describe("startRepeatingJob", () => {
  it("runs at once and on every tick, never two runs at a time, and keeps going after a failure", async () => {
    let active = 0;
    let mostActive = 0;
    let runs = 0;
    const errors: unknown[] = [];
    const job = startRepeatingJob(
      10,
      async () => {
        runs += 1;
        active += 1;
        mostActive = Math.max(mostActive, active);
        await sleep(35);
        active -= 1;
        if (runs === 1) throw new Error("first run fails");
      },
      (error) => errors.push(error),
    );
    expect(runs).toBe(1);
    await sleep(200);
    await job.stop();
    expect(mostActive).toBe(1);
    expect(runs).toBeGreaterThanOrEqual(3);
    expect(errors).toHaveLength(1);
    const after = runs;
    await sleep(50);
    expect(runs).toBe(after);
  });

  it("stop() aborts the run in progress and waits for it to end", async () => {
    let ended = false;
    const job = startRepeatingJob(
      60_000,
      async (signal) => {
        await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve()));
        await sleep(20);
        ended = true;
      },
      () => {},
    );
    await job.stop();
    expect(ended).toBe(true);
  });
});
