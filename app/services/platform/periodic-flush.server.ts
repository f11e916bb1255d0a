/**
 * Work gathered in memory and written every `intervalMs` and on close: `flush()` may be called at
 * any time (tests, shutdown), and calls queue behind each other so two writes never overlap.
 */
export class PeriodicFlush {
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly write: () => Promise<void>,
    intervalMs: number,
  ) {
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
