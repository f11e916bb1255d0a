import { Readable } from "node:stream";
import type { AppContext } from "~/services/app-context.server";
import { planFileResponse, RANGE_NOT_SATISFIABLE_BODY, withoutHostHeaders, type ServableFile, type ServingOptions } from "~/http/file-serving.server";
import { accelPrefix, accelResponse } from "~/http/accel-redirect.server";

/** A streamed zip as a private download; a stream that fails midway ends the download and is logged. */
export function zipResponse(stream: Readable, filename: string, onError: (error: Error) => void): Response {
  stream.on("error", onError);
  return new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, {
    headers: { "Content-Type": "application/zip", "Content-Disposition": `attachment; filename="${filename}"`, "Cache-Control": "private, no-store" },
  });
}

/**
 * A stored blob as a Fetch Response for resource routes, with the same Range, ETag, 304 and
 * safety headers as the /f/ fast path (both use planFileResponse); its bytes sent by nginx when
 * X-Accel-Redirect is on. Null when the blob is gone.
 */
export async function blobResponse(
  ctx: Pick<AppContext, "blobs" | "config">,
  request: Request,
  storageKey: string,
  file: ServableFile,
  options: ServingOptions = {},
): Promise<Response | null> {
  const plan = planFileResponse({ method: request.method, header: (name) => request.headers.get(name) ?? undefined }, file, options);
  const headers = withoutHostHeaders(plan.headers);
  if (plan.status === 304) return new Response(null, { status: 304, headers });
  if (plan.status === 416) return new Response(RANGE_NOT_SATISFIABLE_BODY, { status: 416, headers });
  if (!plan.sendBody) return (await ctx.blobs.head(storageKey)) ? new Response(null, { status: plan.status, headers }) : null;
  const prefix = accelPrefix(ctx);
  if (prefix) return (await ctx.blobs.head(storageKey)) ? accelResponse(prefix, storageKey, headers) : null;
  const blob = await ctx.blobs.get(storageKey, plan.range ?? undefined);
  if (!blob) return null;
  return new Response(Readable.toWeb(blob.stream) as ReadableStream<Uint8Array>, { status: plan.status, headers });
}
