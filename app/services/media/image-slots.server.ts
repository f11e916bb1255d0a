import os from "node:os";
import sharp from "sharp";

// libvips keeps decoded tiles in a process-wide cache and spreads one image over all cores by
// default; on a shared small machine that means unbounded memory and requests starving each
// other. One libvips thread per image and a fixed number of images at once keeps both bounded.
sharp.cache(false);
sharp.concurrency(1);

const SLOTS = Math.max(1, Math.min(4, os.availableParallelism()));
let running = 0;
let peak = 0;
let finished = 0;
const waiting: Array<() => void> = [];

/** What the limiter has done in this process; /metrics reports it. */
export function imageSlotStats(): { slots: number; peak: number; finished: number } {
  return { slots: SLOTS, peak, finished };
}

/** Runs `work` when one of the image slots is free; callers beyond the slots queue in order. */
export async function withImageSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= SLOTS) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  peak = Math.max(peak, running);
  try {
    return await work();
  } finally {
    finished++;
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}
