import { describe, expect, it } from "vitest";
import { readLogBody, requestDataset } from "~/http/log-body.server";
import { MAX_LOG_BODY_BYTES } from "~/services/logs/log-parsing.server";
import { asyncRefusal } from "../../tests/helpers/refusals.ts";

const post = (body: BodyInit | null, headers: Record<string, string> = {}) => new Request("http://stash.test/api/logs", { method: "POST", body, headers });

/** A body sent in chunks without a Content-Length, as a chunked client sends it. */
function chunked(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    pull(controller) {
      const next = chunks.shift();
      if (next) controller.enqueue(next);
      else controller.close();
    },
  });
}

describe("readLogBody", () => {
  it("parses the JSON body, trimmed", async () => {
    expect(await readLogBody(post('  [{"message":"a"}]\n'))).toEqual([{ message: "a" }]);
    expect(await readLogBody(post('{"message":"żółw 🐢"}'))).toEqual({ message: "żółw 🐢" });
  });

  it("joins a character split across chunks", async () => {
    const bytes = Buffer.from('{"message":"🐢"}');
    const body = chunked([bytes.subarray(0, 13), bytes.subarray(13)]);
    expect(await readLogBody(new Request("http://stash.test/api/logs", { method: "POST", body, duplex: "half" } as RequestInit))).toEqual({ message: "🐢" });
  });

  it("says to send JSON for an empty body and refuses one that is not JSON", async () => {
    expect(await asyncRefusal(() => readLogBody(post(null)))).toMatchObject({ code: "invalid_request", message: "Send log entries as JSON" });
    expect(await asyncRefusal(() => readLogBody(post("  \n ")))).toMatchObject({ code: "invalid_request", message: "Send log entries as JSON" });
    expect(await asyncRefusal(() => readLogBody(post("message=hi")))).toMatchObject({ code: "invalid_request", message: "The body must be JSON" });
  });

  it("refuses more than 2 MB, by Content-Length before reading or while reading", async () => {
    const declared = post("{}", { "content-length": String(MAX_LOG_BODY_BYTES + 1) });
    expect(await asyncRefusal(() => readLogBody(declared))).toMatchObject({ code: "request_too_large" });
    const body = chunked([new Uint8Array(MAX_LOG_BODY_BYTES), new Uint8Array(1)]);
    const undeclared = new Request("http://stash.test/api/logs", { method: "POST", body, duplex: "half" } as RequestInit);
    expect(await asyncRefusal(() => readLogBody(undeclared))).toMatchObject({ code: "request_too_large" });
  });
});

describe("requestDataset", () => {
  it("takes Fivemanage's header first, then ours, then the query", () => {
    const url = "http://stash.test/api/logs?dataset=from-query";
    expect(requestDataset(new Request(url, { headers: { "X-Fivemanage-Dataset": "fm", "X-Stash-Dataset": "ours" } }))).toBe("fm");
    expect(requestDataset(new Request(url, { headers: { "X-Stash-Dataset": "ours" } }))).toBe("ours");
    expect(requestDataset(new Request(url))).toBe("from-query");
    expect(requestDataset(new Request("http://stash.test/api/logs"))).toBeUndefined();
  });
});
