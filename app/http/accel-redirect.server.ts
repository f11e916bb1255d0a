import type { AppContext } from "~/services/app-context.server";

/**
 * X-Accel-Redirect (docs/nginx-x-accel.md, decision 121): with `ACCEL_REDIRECT_PREFIX` set and files
 * on disk, Stash decides access, status, validators, ranges and every header, and nginx sends the
 * bytes from its internal location with sendfile. The prefix with one trailing slash, or undefined
 * when Stash sends the bytes itself (no prefix, or S3 storage, which redirects or proxies).
 */
export function accelPrefix(ctx: Pick<AppContext, "blobs" | "config">): string | undefined {
  return ctx.blobs.kind === "disk" ? ctx.config.ACCEL_REDIRECT_PREFIX?.replace(/\/?$/, "/") : undefined;
}

/**
 * The answer that hands a stored blob's bytes to nginx: the headers Stash planned, without those
 * nginx writes for the bytes it sends (range, `Accept-Ranges`), and the internal path. Always
 * 200: nginx answers a `Range` itself, as Stash's plan did (a 416 or a stale `If-Range` never gets here).
 */
export function accelResponse(prefix: string, storageKey: string, headers: Headers): Response {
  for (const name of ["Content-Range", "Accept-Ranges"]) headers.delete(name);
  // An empty body of announced length: nginx keeps the upstream connection for the next request
  // only when it knows the body ended (a chunked one it would have to read first, so it closes it).
  headers.set("Content-Length", "0");
  headers.set("X-Accel-Redirect", prefix + storageKey);
  return new Response(null, { status: 200, headers });
}
