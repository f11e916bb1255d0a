import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { applyCors, CORS_PATHS } from "~/http/cors.server";

/** A Node request and its response, as the host hands them over, without a listening server. */
function exchange(method: string, headers: Record<string, string> = {}) {
  const req = new IncomingMessage(new Socket());
  req.method = method;
  req.headers = headers;
  const res = new ServerResponse(req);
  return { req, res };
}

describe("CORS_PATHS: where any origin may call", () => {
  it("covers the script API and the file path, and nothing that only starts alike", () => {
    for (const path of ["/api", "/api/", "/api/upload", "/f/abc/cat/x.png", "/f"]) expect(CORS_PATHS.test(path), path).toBe(true);
    for (const path of ["/", "/apix", "/api-keys", "/fonts/x.woff2", "/dashboard", "/auth", "/API/upload", "/x/api/upload"]) expect(CORS_PATHS.test(path), path).toBe(false);
  });
});

describe("applyCors", () => {
  it("lets any origin read an ordinary answer and its useful headers, and leaves it to the route", () => {
    const { req, res } = exchange("GET", { origin: "https://cfx-nui-lb-phone" });
    expect(applyCors(req, res)).toBe(false);
    expect(res.getHeader("Access-Control-Allow-Origin")).toBe("*");
    const exposed = String(res.getHeader("Access-Control-Expose-Headers")).split(", ");
    expect(exposed).toEqual(expect.arrayContaining(["Content-Range", "Retry-After", "RateLimit-Remaining", "Upload-Offset", "Location"]));
    expect(res.getHeader("Access-Control-Allow-Methods")).toBeUndefined();
  });

  it("answers a preflight itself with 204, echoing the header names asked for", () => {
    const { req, res } = exchange("OPTIONS", { "access-control-request-headers": "x-api-key, content-type, tus-resumable" });
    expect(applyCors(req, res)).toBe(true);
    expect(res.statusCode).toBe(204);
    expect(res.writableEnded).toBe(true);
    expect(res.getHeader("Access-Control-Allow-Headers")).toBe("x-api-key, content-type, tus-resumable");
    expect(res.getHeader("Access-Control-Allow-Methods")).toBe("GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
    expect(res.getHeader("Access-Control-Max-Age")).toBe("86400");
    expect(res.getHeader("Vary")).toBe("Access-Control-Request-Headers");
  });

  it("offers the default headers when none or anything but header names were asked for", () => {
    const defaults = "Authorization, X-Api-Key, Content-Type, Range, If-None-Match, X-Requested-With";
    for (const asked of ["", "   ", "x-api-key\r\nSet-Cookie: a=b", "x-api-key; evil", "x-api-key,,", "é"]) {
      const { req, res } = exchange("OPTIONS", asked ? { "access-control-request-headers": asked } : {});
      applyCors(req, res);
      expect(res.getHeader("Access-Control-Allow-Headers"), JSON.stringify(asked)).toBe(defaults);
    }
  });
});
