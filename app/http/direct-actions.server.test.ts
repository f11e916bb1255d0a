import { describe, expect, it } from "vitest";
import { matchDirectRoute, type DirectRoute } from "~/http/direct-actions.server";

const answer = async () => new Response(null);
const upload: DirectRoute = { methods: ["POST"], path: /^\/api\/upload\/?$/, action: answer };
const presigned: DirectRoute = { methods: ["POST", "PUT"], path: /^\/api\/upload\/presigned\/(?<token>[^/]+)\/?$/, action: answer };
const routes = [upload, presigned];

describe("matchDirectRoute", () => {
  it("finds the route by method and path, ignoring the query", () => {
    expect(matchDirectRoute(routes, "POST", "/api/upload?category=x")).toEqual({ route: upload, params: {} });
    expect(matchDirectRoute(routes, "PUT", "/api/upload/presigned/abc123")).toEqual({ route: presigned, params: { token: "abc123" } });
  });

  it("leaves other methods, paths and missing parts to the router", () => {
    expect(matchDirectRoute(routes, "GET", "/api/upload")).toBeNull();
    expect(matchDirectRoute(routes, "post", "/api/upload")).toBeNull();
    expect(matchDirectRoute(routes, "POST", "/api/uploads")).toBeNull();
    expect(matchDirectRoute(routes, undefined, "/api/upload")).toBeNull();
    expect(matchDirectRoute(routes, "POST", undefined)).toBeNull();
    expect(matchDirectRoute([], "POST", "/api/upload")).toBeNull();
  });

  it("percent-decodes params, and a malformed escape is no match", () => {
    expect(matchDirectRoute(routes, "PUT", "/api/upload/presigned/a%20b%C3%A9")?.params).toEqual({ token: "a bé" });
    expect(matchDirectRoute(routes, "PUT", "/api/upload/presigned/%E0%A4%A")).toBeNull();
  });
});
