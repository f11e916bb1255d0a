import type { ServedFileRecord } from "~/services/files/lookup.server";
import { planFileResponse, servableOriginal } from "~/http/file-serving.server";

/**
 * The headers of a public original's plain answers, worked out once per file record: a 200 (GET
 * and HEAD) and a 304 (If-None-Match with its ETag). /f/ answers most requests for small files
 * from these and the body in memory (decision record 086); they come from `planFileResponse`, so
 * they are the headers the full path sends. Keyed by the cached record object: a file changed,
 * hidden or deleted gets a new record (or none) and so never an old answer.
 */
export interface KeptFileAnswer {
  etag: string;
  /** Header names and values in turn, as `writeHead` takes them. */
  ok: string[];
  notModified: string[];
}

const answers = new WeakMap<ServedFileRecord, KeptFileAnswer>();

export function keptFileAnswer(file: ServedFileRecord): KeptFileAnswer {
  let answer = answers.get(file);
  if (!answer) {
    const target = servableOriginal(file);
    const ok = planFileResponse({ method: "GET", header: () => undefined }, target);
    const etag = ok.headers.ETag;
    const notModified = planFileResponse({ method: "GET", header: (name) => (name === "if-none-match" ? etag : undefined) }, target);
    answer = { etag, ok: Object.entries(ok.headers).flat(), notModified: Object.entries(notModified.headers).flat() };
    answers.set(file, answer);
  }
  return answer;
}
