import type { Logger } from "~/services/platform/logger.server";

/**
 * Encodes that need not hold up a request (AVIF is ~9× slower than WebP), one at a time per
 * instance so they never take the CPU from uploads and cheap transforms. A key already queued is
 * not queued twice; an instance that stops loses its queue, and the next request asks again.
 */
const queued = new Set<string>();
let tail: Promise<void> = Promise.resolve();

export function encodeInBackground(key: string, work: () => Promise<unknown>, logger: Logger): void {
  if (queued.has(key)) return;
  queued.add(key);
  tail = tail
    .then(work)
    .then(
      () => undefined,
      (error: unknown) => logger.warn({ err: error, key }, "background encode failed"),
    )
    .finally(() => queued.delete(key));
}

/** Resolves once every encode queued so far has finished (tests, shutdown). */
export function backgroundEncodesSettled(): Promise<void> {
  return tail;
}
