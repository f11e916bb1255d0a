import fs from "node:fs";
import type { ServerResponse } from "node:http";
import { READ_CHUNK_BYTES } from "../../storage/disk";

/** Per response: one chunk on the socket while the next is read. */
const CHUNKS_IN_FLIGHT = 2;
const POOL_MAX = 64;
const pool: Buffer[] = [];

/**
 * Sends bytes `start`–`end` (inclusive) of an open file as the body of `res`, then closes `fd`.
 *
 * A read stream allocates a new buffer for every read: at 1 GB/s of 1 MiB files that is 1 GB/s of
 * short-lived memory, and collecting it grows costly in a process with Stash's heap. Here the
 * buffers come from a pool and go back once the socket has written them (the write callback), so a
 * busy server reuses the same few megabytes. Backpressure is the write callback: a slow client holds
 * at most two chunks.
 */
export function sendDescriptor(res: ServerResponse, fd: number, start: number, end: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let position = start;
    let inFlight = 0;
    let reading = false;
    let settled = false;
    const settle = (error?: Error) => {
      if (settled) return;
      settled = true;
      // A read still running keeps the descriptor: closing it now could hand its number to another file.
      if (!reading) fs.close(fd, () => {});
      if (error) reject(error);
      else resolve();
    };
    // A client that goes away mid-body ends the send; it is not an error.
    res.once("close", () => settle());
    const pump = () => {
      if (settled || reading) return;
      if (position > end) {
        if (inFlight === 0) res.end(() => settle());
        return;
      }
      if (inFlight >= CHUNKS_IN_FLIGHT) return;
      reading = true;
      const buffer = pool.pop() ?? Buffer.allocUnsafeSlow(READ_CHUNK_BYTES);
      fs.read(fd, buffer, 0, Math.min(READ_CHUNK_BYTES, end - position + 1), position, (error, bytesRead) => {
        reading = false;
        if (settled) {
          fs.close(fd, () => {});
          return release(buffer);
        }
        if (error || bytesRead === 0) {
          release(buffer);
          return settle(error ?? new Error("file ended before its recorded size"));
        }
        position += bytesRead;
        inFlight += 1;
        res.write(bytesRead === READ_CHUNK_BYTES ? buffer : buffer.subarray(0, bytesRead), (writeError) => {
          inFlight -= 1;
          // Only now has the socket finished with the bytes, so only now may the buffer be reused.
          release(buffer);
          if (writeError) return settle();
          pump();
        });
        pump();
      });
    };
    pump();
  });
}

function release(buffer: Buffer) {
  if (pool.length < POOL_MAX) pool.push(buffer);
}
