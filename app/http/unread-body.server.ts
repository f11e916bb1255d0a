import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** A refused body up to this size is read and discarded, so the connection stays usable. */
export const DRAIN_LIMIT_BYTES = 1024 * 1024;
/** How long, and how many more bytes, a closing connection keeps discarding before it is cut. */
export const LINGER_MS = 2000;
export const LINGER_BYTES = 1024 * 1024;

/**
 * Keeps keep-alive clients working when an answer goes out before the request body was read (a
 * 401 for a bad key, 413, 415, 400, any early answer of any route). Left alone, the unread body
 * stays paused in React Router's request bridge: the next request on that socket is never parsed
 * and the client later reads a reset. Here, per request with a body:
 * - a body of at most DRAIN_LIMIT_BYTES keeps the connection; what is left of it is discarded
 *   after the answer;
 * - a larger or chunked body is answered with `Connection: close`, and after the answer is
 *   flushed the socket is ended gracefully, discarding what still arrives for a bounded linger,
 *   then destroyed — never a reset on a connection the client was told it may reuse.
 */
export function settleUnreadBody(req: IncomingMessage, res: ServerResponse): void {
  const chunked = req.headers["transfer-encoding"] !== undefined;
  const declared = Number(req.headers["content-length"] ?? 0);
  if (!chunked && !(declared > 0)) return;
  if (!chunked && declared <= DRAIN_LIMIT_BYTES) {
    res.once("finish", () => {
      if (!req.complete) discardRest(req, DRAIN_LIMIT_BYTES, () => req.socket.destroy());
    });
    return;
  }
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse["writeHead"]>) {
    if (!req.complete) {
      this.setHeader("Connection", "close");
      // Node ends a `Connection: close` answer with socket.destroySoon(): a destroy right after the
      // flush, which resets the connection while the client is still sending, and it may lose the answer.
      const socket = req.socket as Socket & { destroySoon(): void };
      const destroySoon = socket.destroySoon;
      socket.destroySoon = () => (req.complete ? destroySoon.call(socket) : lingeringClose(req, socket));
    }
    return writeHead.apply(this, args);
  } as ServerResponse["writeHead"];
}

/**
 * Reads and drops the rest of the body: the bridge into the (abandoned) web stream is detached so
 * nothing piles up in memory, as Node's own dump of an untouched body does. Past `limit` bytes, `cut`.
 */
function discardRest(req: IncomingMessage, limit: number, cut: () => void): void {
  let seen = 0;
  req.removeAllListeners("data");
  req.on("data", (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > limit) cut();
  });
  req.resume();
}

function lingeringClose(req: IncomingMessage, socket: Socket): void {
  socket.end();
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  socket.once("close", () => clearTimeout(timer));
  // Once the answer is out, the client has had it: a reset from here on loses nothing.
  const cut = () => (socket.writableFinished ? socket.destroy() : socket.once("finish", () => socket.destroy()));
  req.once("end", cut);
  discardRest(req, LINGER_BYTES, cut);
}
