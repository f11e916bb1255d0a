import { takeNodeBody } from "~/http/direct-actions.server";
import { DomainError } from "~/services/platform/domain-error.server";
import { MAX_LOG_BODY_BYTES } from "~/services/logs/log-parsing.server";

/** A log request's JSON body, at most 2 MB (413 beyond, read no further); a 400 when it is not JSON. */
export async function readLogBody(request: Request): Promise<unknown> {
  const tooLarge = () => new DomainError("request_too_large", "A log request may carry at most 2 MB; send smaller batches");
  if (Number(request.headers.get("content-length") ?? 0) > MAX_LOG_BODY_BYTES) throw tooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  // Straight from the Node stream when the request came that way (direct-actions), not chunk by chunk
  // through a web stream; left open when the reading stops early, so the 413 can still be answered.
  const node = takeNodeBody(request);
  const body = node ? node.iterator({ destroyOnReturn: false }) : (request.body as unknown as AsyncIterable<Uint8Array> | null);
  if (body) {
    for await (const chunk of body) {
      size += chunk.byteLength;
      if (size > MAX_LOG_BODY_BYTES) throw tooLarge();
      chunks.push(chunk);
    }
  }
  const text = Buffer.concat(chunks).toString("utf8").trim();
  if (!text) throw new DomainError("invalid_request", "Send log entries as JSON");
  try {
    return JSON.parse(text);
  } catch {
    throw new DomainError("invalid_request", "The body must be JSON");
  }
}

/** The dataset a request names outside its entries: Fivemanage's header, ours, or `?dataset=`. */
export function requestDataset(request: Request): string | undefined {
  const url = new URL(request.url);
  return request.headers.get("x-fivemanage-dataset") ?? request.headers.get("x-stash-dataset") ?? url.searchParams.get("dataset") ?? undefined;
}
