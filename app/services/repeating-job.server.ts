export interface RepeatingJob {
  /** Clears the timer, aborts the signal of a run in progress and waits for it. */
  stop(): Promise<void>;
}

/**
 * Runs `work` now and then every `intervalMs`. A tick that comes while the previous run is still
 * going is skipped, so a slow run never stacks up behind itself. A failed run goes to `onError`;
 * the next tick tries again. The timer does not keep the process alive.
 */
export function startRepeatingJob(intervalMs: number, work: (signal: AbortSignal) => Promise<void>, onError: (error: unknown) => void): RepeatingJob {
  const controller = new AbortController();
  let running: Promise<void> | null = null;
  const tick = () => {
    if (running) return;
    running = work(controller.signal)
      .catch(onError)
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  tick();
  return {
    async stop() {
      clearInterval(timer);
      controller.abort();
      await running;
    },
  };
}
