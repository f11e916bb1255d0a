import { Readable } from "node:stream";
import type { AppContext } from "../services/app-context.server.ts";
import { planFileResponse, RANGE_NOT_SATISFIABLE_BODY, type ServableFile, type ServingOptions } from "../services/file-serving.server.ts";

/**
 * A stored blob as a Fetch Response for resource routes, with the same Range, ETag, 304 and
 * safety headers as the /f/ fast path (both use planFileResponse). Null when the blob is gone.
 */
export async function blobResponse(
  ctx: Pick<AppContext, "blobs">,
  request: Request,
  storageKey: string,
  file: ServableFile,
  options: ServingOptions = {},
): Promise<Response | null> {
  const plan = planFileResponse({ method: request.method, header: (name) => request.headers.get(name) ?? undefined }, file, options);
  if (plan.status === 304) return new Response(null, { status: 304, headers: plan.headers });
  if (plan.status === 416) return new Response(RANGE_NOT_SATISFIABLE_BODY, { status: 416, headers: plan.headers });
  if (!plan.sendBody) {
    if (!(await ctx.blobs.head(storageKey))) return null;
    return new Response(null, { status: plan.status, headers: plan.headers });
  }
  const blob = await ctx.blobs.get(storageKey, plan.range ?? undefined);
  if (!blob) return null;
  const body = Readable.toWeb(blob.stream) as ReadableStream<Uint8Array>;
  return new Response(body, { status: plan.status, headers: plan.headers });
}
