import { describe, expect, it } from "vitest";
import { bodyCap, decodeBase64, kindOf, MAX_FILES_PER_REQUEST, parseTextBody } from "~/http/upload-request.server";
import { refusal } from "../../tests/helpers/refusals.ts";

const MB = 1024 * 1024;

describe("kindOf: how an upload body is read", () => {
  it("reads multipart as multipart, media and octet-stream as raw bytes, everything else as text", () => {
    expect(kindOf("multipart/form-data; boundary=x", "any")).toBe("multipart");
    expect(kindOf("image/webp", "any")).toBe("raw");
    expect(kindOf("video/mp4", "any")).toBe("raw");
    expect(kindOf("audio/ogg; codecs=opus", "any")).toBe("raw");
    expect(kindOf("application/octet-stream", "any")).toBe("raw");
    expect(kindOf("application/pdf", "any")).toBe("raw");
    expect(kindOf("application/json", "any")).toBe("text");
    expect(kindOf("text/plain", "any")).toBe("text");
    expect(kindOf("", "any")).toBe("text");
  });

  it("lets a route fix the kind whatever the client says", () => {
    expect(kindOf("multipart/form-data; boundary=x", "json")).toBe("text");
    expect(kindOf("application/json", "raw")).toBe("raw");
  });

  it("does not take a type that only contains a media word for media", () => {
    expect(kindOf("application/x-image/png", "any")).toBe("text");
    expect(kindOf("text/video", "any")).toBe("text");
  });
});

describe("bodyCap: the largest body worth reading", () => {
  it("is the file limit for raw bytes", () => {
    expect(bodyCap("raw", 50 * MB)).toBe(50 * MB);
  });

  it("is 4/3 of the limit plus 64 KB for base64 text, 10% more for a url-encoded form", () => {
    expect(bodyCap("text", 3 * MB)).toBe(4 * MB + 64 * 1024);
    expect(bodyCap("text", 3 * MB, "application/x-www-form-urlencoded; charset=utf-8")).toBe(Math.ceil(4 * MB * 1.1) + 64 * 1024);
    expect(bodyCap("text", 3 * MB, "application/json")).toBe(4 * MB + 64 * 1024);
  });

  it("is every file of a multipart request at the limit, plus framing and fields", () => {
    expect(bodyCap("multipart", 10 * MB)).toBe(MAX_FILES_PER_REQUEST * 10 * MB + MB + 100 * 64 * 1024);
    expect(bodyCap("multipart", 0)).toBe(MB + 100 * 64 * 1024);
  });

  it("stays an exact, finite number for a 10 GB limit", () => {
    const cap = bodyCap("text", 10_000 * MB);
    expect(Number.isSafeInteger(cap)).toBe(true);
    expect(cap).toBeGreaterThan((10_000 * MB * 4) / 3);
  });
});

describe("decodeBase64", () => {
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

  it("decodes bare base64, a data URI and its MIME type, ignoring whitespace and line breaks", () => {
    expect(decodeBase64(png.toString("base64"), MB)).toEqual({ bytes: png, mime: undefined });
    expect(decodeBase64(`  data:image/png;base64,${png.toString("base64")}\n`, MB)).toEqual({ bytes: png, mime: "image/png" });
    const wrapped = png.toString("base64").replace(/(.{4})/g, "$1\r\n");
    expect(decodeBase64(wrapped, MB).bytes).toEqual(png);
  });

  it("takes data URIs with parameters or no type, in any case, and URL-safe base64", () => {
    expect(decodeBase64(`DATA:image/jpeg;name=a.jpg;BASE64,${png.toString("base64")}`, MB)).toEqual({ bytes: png, mime: "image/jpeg" });
    expect(decodeBase64(`data:;base64,${png.toString("base64")}`, MB)).toEqual({ bytes: png, mime: undefined });
    const bytes = Buffer.from([0xfb, 0xff, 0xbf]);
    expect(decodeBase64(bytes.toString("base64url"), MB).bytes).toEqual(bytes);
  });

  it("refuses a data URI that is not base64, and text that is not base64", () => {
    expect(refusal(() => decodeBase64("data:text/plain,hello", MB))).toMatchObject({ code: "invalid_request", message: "Only base64 data URIs are accepted" });
    for (const bad of ["", "   ", "not base64!", "abc===", "data:image/png;base64,"]) {
      expect(refusal(() => decodeBase64(bad, MB)), bad).toMatchObject({ code: "invalid_request", message: "The file is not valid base64" });
    }
  });

  it("refuses decoded bytes past the limit, naming both sizes", () => {
    const error = refusal(() => decodeBase64(Buffer.alloc(MB + 1).toString("base64"), MB));
    expect(error).toMatchObject({ code: "file_too_large", details: { max_size_mb: 1, file_size_mb: 1 } });
    expect(decodeBase64(Buffer.alloc(MB).toString("base64"), MB).bytes.length).toBe(MB);
  });
});

describe("parseTextBody: where the file is in a text body", () => {
  it("takes a JSON object's first file key and keeps the other fields", () => {
    expect(parseTextBody('{"category":"mugshots","image":"AAAA","file":"BBBB"}', "application/json")).toEqual({
      payload: "BBBB",
      rest: { category: "mugshots", image: "AAAA" },
    });
    expect(parseTextBody('{"data":"AAAA","player_name":"Jo"}', "")).toEqual({ payload: "AAAA", rest: { player_name: "Jo" } });
  });

  it("skips empty or non-string file keys", () => {
    expect(parseTextBody('{"base64":"","file":{"x":1},"data":"CCCC"}', "application/json")).toEqual({ payload: "CCCC", rest: { base64: "", file: { x: 1 } } });
  });

  it("takes a JSON string as the file itself", () => {
    expect(parseTextBody('"data:image/png;base64,AAAA"', "application/json")).toEqual({ payload: "data:image/png;base64,AAAA", rest: {} });
  });

  it("refuses JSON that does not parse, is not an object, or names no file", () => {
    expect(refusal(() => parseTextBody("{not json", "application/json"))).toMatchObject({ code: "invalid_request", message: "The body is not valid JSON" });
    expect(refusal(() => parseTextBody('{"category":"x"}', "application/json"))).toMatchObject({ code: "missing_file" });
    expect(refusal(() => parseTextBody('{"file":null}', "application/json")).message).toBe("No file provided (send it as base64 or a data URI in one of: base64, file, data)");
  });

  it("reads a form body by its content type, or by a file key when the type is wrong", () => {
    expect(parseTextBody("category=phone&file=AA+B%2FC%3D", "application/x-www-form-urlencoded")).toEqual({ payload: "AA+B/C=", rest: { category: "phone" } });
    expect(parseTextBody("player_name=Jo&screenshot=QUJD", "text/plain")).toEqual({ payload: "QUJD", rest: { player_name: "Jo" } });
  });

  it("restores a + that a hand-built form left unescaped", () => {
    expect(parseTextBody("file=ab+cd", "application/x-www-form-urlencoded").payload).toBe("ab+cd");
  });

  it("refuses a form with no file field", () => {
    expect(refusal(() => parseTextBody("category=x&name=y", "application/x-www-form-urlencoded"))).toMatchObject({ code: "missing_file" });
  });

  it("takes anything else, bare base64 with its padding included, as the file", () => {
    expect(parseTextBody("QUJDRA==", "text/plain")).toEqual({ payload: "QUJDRA==", rest: {} });
    expect(parseTextBody("data:image/png;base64,AA==&file=x", "text/plain")).toEqual({ payload: "data:image/png;base64,AA==&file=x", rest: {} });
  });
});
