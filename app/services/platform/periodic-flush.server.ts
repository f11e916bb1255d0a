/**
 * Work gathered in memory and written every `intervalMs` and on close. `flush()` may be called at
 * any time (tests, shutdown); calls queue behind each other so two writes never overlap.
 */
export abstract class PeriodicFlush {
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(intervalMs: number) {
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  /** Writes what has gathered since the last write; nothing when nothing has. */
  protected abstract write(): Promise<void>;

  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
