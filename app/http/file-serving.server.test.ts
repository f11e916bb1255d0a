import { describe, expect, it } from "vitest";
import {
  contentDisposition,
  etagFor,
  etagMatches,
  fileHeaders,
  mayDisplayInline,
  parseRange,
  planFileResponse,
  servableOriginal,
  servableVariant,
  withoutHostHeaders,
  type ServableFile,
} from "~/http/file-serving.server";

const SHA = "a".repeat(64);
const file: ServableFile = {
  size: 1000,
  sha256: SHA,
  mimeType: "image/png",
  lastModified: new Date("2026-11-26T10:00:00.500Z"),
  downloadName: "evidence.png",
  isPublic: true,
};

/** A GET or HEAD with these headers, as the /f/ path and the download routes describe a request. */
function request(headers: Record<string, string> = {}, method = "GET") {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return { method, header: (name: string) => lower[name] };
}

describe("parseRange", () => {
  it("reads one bytes= range, open-ended or a suffix", () => {
    expect(parseRange("bytes=0-99", 1000)).toEqual({ kind: "range", range: { start: 0, end: 99 } });
    expect(parseRange("bytes=500-", 1000)).toEqual({ kind: "range", range: { start: 500, end: 999 } });
    expect(parseRange("bytes=-100", 1000)).toEqual({ kind: "range", range: { start: 900, end: 999 } });
    expect(parseRange(" BYTES=5 - 9 ", 1000)).toEqual({ kind: "range", range: { start: 5, end: 9 } });
  });

  it("clamps an end or a suffix past the file to the file", () => {
    expect(parseRange("bytes=990-5000", 1000)).toEqual({ kind: "range", range: { start: 990, end: 999 } });
    expect(parseRange("bytes=-5000", 1000)).toEqual({ kind: "range", range: { start: 0, end: 999 } });
    expect(parseRange("bytes=0-99999999999999999999", 1000)).toEqual({ kind: "range", range: { start: 0, end: 999 } });
  });

  it("answers 416 for a start at or past the end, a reversed range, an empty suffix or an empty file", () => {
    expect(parseRange("bytes=1000-", 1000)).toEqual({ kind: "unsatisfiable" });
    expect(parseRange("bytes=10-5", 1000)).toEqual({ kind: "unsatisfiable" });
    expect(parseRange("bytes=-0", 1000)).toEqual({ kind: "unsatisfiable" });
    expect(parseRange("bytes=-10", 0)).toEqual({ kind: "unsatisfiable" });
    expect(parseRange("bytes=0-", 0)).toEqual({ kind: "unsatisfiable" });
  });

  it("ignores what it cannot read, and several ranges, so the whole file is sent", () => {
    for (const header of [undefined, "", "bytes=", "bytes=-", "items=0-5", "bytes=a-b", "bytes=0-5,10-20", "bytes=-5-", "bytes=1.5-2", "bytes = 5-9"]) {
      expect(parseRange(header, 1000), String(header)).toEqual({ kind: "none" });
    }
  });
});

describe("ETags", () => {
  it("quote the hash, with the variant after it", () => {
    expect(etagFor(SHA)).toBe(`"${SHA}"`);
    expect(etagFor(SHA, "w320.webp")).toBe(`"${SHA}-w320.webp"`);
  });

  it("match If-None-Match weakly, in a list, or as *", () => {
    const etag = `"${SHA}"`;
    expect(etagMatches(etag, etag)).toBe(true);
    expect(etagMatches(`W/${etag}`, etag)).toBe(true);
    expect(etagMatches(etag, `W/${etag}`)).toBe(true);
    expect(etagMatches(`"other", ${etag}`, etag)).toBe(true);
    expect(etagMatches(" * ", etag)).toBe(true);
    expect(etagMatches(`"${SHA.toUpperCase()}"`, etag)).toBe(false);
    expect(etagMatches(SHA, etag)).toBe(false);
    expect(etagMatches(undefined, etag)).toBe(false);
    expect(etagMatches("", etag)).toBe(false);
  });
});

describe("what may display inline", () => {
  it("is raster images, plain text, video and audio, whatever the case or parameters", () => {
    expect(mayDisplayInline("image/PNG")).toBe(true);
    expect(mayDisplayInline("text/plain; charset=utf-8")).toBe(true);
    expect(mayDisplayInline("video/webm")).toBe(true);
    expect(mayDisplayInline("audio/ogg")).toBe(true);
  });

  it("is never active content or an unknown type", () => {
    for (const type of ["text/html", "image/svg+xml", "application/xml", "application/javascript", "application/pdf", "application/octet-stream", ""]) {
      expect(mayDisplayInline(type), type).toBe(false);
    }
  });
});

describe("contentDisposition", () => {
  it("gives an ASCII fallback and the UTF-8 name", () => {
    expect(contentDisposition("inline", "photo.png")).toBe(`inline; filename="photo.png"; filename*=UTF-8''photo.png`);
    expect(contentDisposition("attachment", "Zdjęcie 1.jpg")).toBe(`attachment; filename="Zdj_cie 1.jpg"; filename*=UTF-8''Zdj%C4%99cie%201.jpg`);
  });

  it("cannot be broken out of by quotes, slashes, newlines or ; and %", () => {
    const header = contentDisposition("attachment", 'a"b\\c/d\r\ne;f%g.txt');
    expect(header).toBe(`attachment; filename="a_b_c_d__e_f_g.txt"; filename*=UTF-8''a_b_c_d__e%3Bf%25g.txt`);
    expect(header).not.toMatch(/[\r\n]/);
  });

  it("names a nameless file `download` and percent-encodes what RFC 5987 reserves", () => {
    expect(contentDisposition("attachment", "   ")).toBe(`attachment; filename="download"; filename*=UTF-8''download`);
    expect(contentDisposition("inline", "it's (1)*.png")).toBe(`inline; filename="it's (1)*.png"; filename*=UTF-8''it%27s%20%281%29%2A.png`);
  });
});

describe("fileHeaders", () => {
  it("keep uploaded content from running, and let any origin read it", () => {
    const headers = fileHeaders(file);
    expect(headers).toMatchObject({
      ETag: `"${SHA}"`,
      "Last-Modified": "Thu, 26 Nov 2026 10:00:00 GMT",
      "Cache-Control": "public, max-age=31536000, immutable",
      "Content-Type": "image/png",
      "Content-Disposition": `inline; filename="evidence.png"; filename*=UTF-8''evidence.png`,
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "sandbox",
      "Access-Control-Allow-Origin": "*",
      "Accept-Ranges": "bytes",
    });
    expect(headers.Vary).toBeUndefined();
  });

  it("cache private files only privately, and stand-ins for a minute", () => {
    expect(fileHeaders({ ...file, isPublic: false }, { shortCache: true })["Cache-Control"]).toBe("private, no-cache");
    expect(fileHeaders(file, { shortCache: true })["Cache-Control"]).toBe("public, max-age=60");
  });

  it("offer HTML as an attachment, and anything when asked to", () => {
    expect(fileHeaders({ ...file, mimeType: "text/html" })["Content-Disposition"]).toMatch(/^attachment;/);
    expect(fileHeaders(file, { forceAttachment: true })["Content-Disposition"]).toMatch(/^attachment;/);
  });

  it("say what the body varies on", () => {
    expect(fileHeaders(file, { varyAccept: true }).Vary).toBe("Accept");
    expect(fileHeaders(file, { varyAccept: true, varyUserAgent: true }).Vary).toBe("Accept, User-Agent");
  });
});

describe("planFileResponse", () => {
  it("sends the whole file to a plain GET, and no body to a HEAD", () => {
    const get = planFileResponse(request(), file);
    expect(get).toMatchObject({ status: 200, range: null, length: 1000, sendBody: true });
    expect(get.headers["Content-Length"]).toBe("1000");
    expect(planFileResponse(request({}, "HEAD"), file)).toMatchObject({ status: 200, sendBody: false, length: 1000 });
  });

  it("answers 304 to a matching ETag without type or disposition, whatever If-Modified-Since says", () => {
    const plan = planFileResponse(request({ "If-None-Match": `W/"${SHA}"`, "If-Modified-Since": "Thu, 01 Jan 1970 00:00:00 GMT" }), file);
    expect(plan.status).toBe(304);
    expect(plan.headers["Content-Type"]).toBeUndefined();
    expect(plan.headers["Content-Disposition"]).toBeUndefined();
    expect(plan.headers.ETag).toBe(`"${SHA}"`);
    expect(planFileResponse(request({ "If-None-Match": '"stale"', "If-Modified-Since": "Fri, 01 Jan 2100 00:00:00 GMT" }), file).status).toBe(200);
  });

  it("compares If-Modified-Since to the second, and ignores a date it cannot read", () => {
    expect(planFileResponse(request({ "If-Modified-Since": "Thu, 26 Nov 2026 10:00:00 GMT" }), file).status).toBe(304);
    expect(planFileResponse(request({ "If-Modified-Since": "Thu, 26 Nov 2026 09:59:59 GMT" }), file).status).toBe(200);
    expect(planFileResponse(request({ "If-Modified-Since": "yesterday" }), file).status).toBe(200);
  });

  it("sends a range as 206 with its Content-Range and length", () => {
    const plan = planFileResponse(request({ Range: "bytes=100-199" }), file);
    expect(plan).toMatchObject({ status: 206, range: { start: 100, end: 199 }, length: 100 });
    expect(plan.headers).toMatchObject({ "Content-Range": "bytes 100-199/1000", "Content-Length": "100" });
  });

  it("answers 416 as JSON naming the size", () => {
    const plan = planFileResponse(request({ Range: "bytes=5000-" }), file);
    expect(plan.status).toBe(416);
    expect(plan.headers).toMatchObject({ "Content-Range": "bytes */1000", "Content-Type": "application/json", "Content-Disposition": "inline" });
  });

  it("honours If-Range only for the current ETag, sending the whole file otherwise", () => {
    expect(planFileResponse(request({ Range: "bytes=0-9", "If-Range": `"${SHA}"` }), file).status).toBe(206);
    expect(planFileResponse(request({ Range: "bytes=0-9", "If-Range": '"old"' }), file).status).toBe(200);
    expect(planFileResponse(request({ Range: "bytes=5000-", "If-Range": "Thu, 26 Nov 2026 10:00:00 GMT" }), file).status).toBe(200);
  });
});

describe("servable files", () => {
  const row = {
    size_bytes: "123456789012",
    sha256: SHA,
    mime_type: "video/webm",
    created_at: "2026-11-26T10:00:00Z",
    original_filename: "clip.final.webm",
    filename: "k3j2h4.webm",
    is_public: false,
  };

  it("map a row, taking big sizes from text and the original name for downloads", () => {
    expect(servableOriginal(row)).toEqual({
      size: 123456789012,
      sha256: SHA,
      mimeType: "video/webm",
      lastModified: new Date("2026-11-26T10:00:00Z"),
      downloadName: "clip.final.webm",
      isPublic: false,
    });
    expect(servableOriginal({ ...row, original_filename: null }).downloadName).toBe("k3j2h4.webm");
    expect(servableOriginal({ ...row, original_filename: "" }).downloadName).toBe("k3j2h4.webm");
  });

  it("name a variant after its file with the variant's extension, and tag it apart", () => {
    const variant = servableVariant(row, { size_bytes: 42, variant: "w640_h0_inside_q80.webp", mime_type: "image/webp", created_at: "2026-11-27T00:00:00Z" });
    expect(variant).toMatchObject({ size: 42, sha256: `${SHA}-w640_h0_inside_q80.webp`, mimeType: "image/webp", downloadName: "clip.final.webp", isPublic: false });
    expect(servableVariant({ ...row, original_filename: "noext" }, { size_bytes: 1, variant: "poster.jpeg", mime_type: "image/jpeg", created_at: new Date() }).downloadName).toBe("noext.jpeg");
  });
});

describe("withoutHostHeaders", () => {
  it("drops the headers the host sets itself, whatever their case, and keeps the rest", () => {
    const headers = withoutHostHeaders({ "access-control-allow-origin": "*", "X-Content-Type-Options": "nosniff", ETag: '"x"', "Content-Type": "image/png" });
    expect([...headers.keys()].sort()).toEqual(["content-type", "etag"]);
  });
});
