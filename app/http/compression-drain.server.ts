import type { NextFunction, Request, Response } from "express";

type Listener = (...args: unknown[]) => void;

/**
 * `compression` hands a response's "drain" listeners to its zlib stream but leaves removeListener
 * on the response (expressjs/compression#135), so a `res.once("drain")` — React Router waits for
 * drain that way after every write that fills the buffer — stays on the zlib stream after it fires,
 * and a long streamed page (the 240 KB docs page) piles them up past Node's warning limit.
 * This `once` removes the listener from whichever emitter fired it. Install after compression.
 */
export function releaseFiredDrainListeners(_req: Request, res: Response, next: NextFunction): void {
  const once = res.once;
  res.once = function onceDrain(this: Response, event: string | symbol, listener: Listener) {
    if (event !== "drain") return once.call(this, event, listener);
    function fired(this: NodeJS.EventEmitter, ...args: unknown[]) {
      this.removeListener("drain", fired);
      listener.apply(res, args);
    }
    // Lets `res.off("drain", listener)` find it while it is on the response itself (uncompressed answers).
    fired.listener = listener;
    return this.on("drain", fired);
  } as Response["once"];
  next();
}
