import { describe, expect, it } from "vitest";
import { isSameOrigin, isSameOriginRequest } from "~/http/origin-check.server";

const APP = "https://stash.example.com/";
const facts = (over: Partial<Parameters<typeof isSameOrigin>[0]>) => ({ method: "POST", origin: null, secFetchSite: null, requestOrigin: "https://stash.example.com", ...over });

describe("isSameOrigin", () => {
  it("lets safe methods through whatever they carry", () => {
    for (const method of ["GET", "head", "OPTIONS"]) expect(isSameOrigin(facts({ method, secFetchSite: "cross-site", origin: "https://evil.example" }), APP)).toBe(true);
  });

  it("decides by Sec-Fetch-Site when the browser sends it, before Origin", () => {
    expect(isSameOrigin(facts({ secFetchSite: "same-origin" }), APP)).toBe(true);
    expect(isSameOrigin(facts({ secFetchSite: "none" }), APP)).toBe(true);
    expect(isSameOrigin(facts({ secFetchSite: "same-site" }), APP)).toBe(false);
    expect(isSameOrigin(facts({ secFetchSite: "cross-site", origin: "https://stash.example.com" }), APP)).toBe(false);
  });

  it("falls back to Origin: the app's, or the one the request was addressed to", () => {
    expect(isSameOrigin(facts({ origin: "https://stash.example.com" }), APP)).toBe(true);
    expect(isSameOrigin(facts({ origin: "http://10.0.0.5:3000", requestOrigin: "http://10.0.0.5:3000" }), APP)).toBe(true);
    expect(isSameOrigin(facts({ origin: "https://stash.example.com.evil.example" }), APP)).toBe(false);
    expect(isSameOrigin(facts({ origin: "http://stash.example.com" }), APP)).toBe(false);
    expect(isSameOrigin(facts({ origin: "null" }), APP)).toBe(false);
    // Two opaque origins are not the same origin, even though both print as "null".
    expect(isSameOrigin(facts({ origin: "null", requestOrigin: "null" }), APP)).toBe(false);
  });

  it("trusts a request with neither header: no browser sent it, so no cookie rode along", () => {
    expect(isSameOrigin(facts({}), APP)).toBe(true);
  });
});

describe("isSameOriginRequest", () => {
  it("reads the facts from a Request", () => {
    const post = (headers: Record<string, string>) => new Request("https://stash.example.com/settings", { method: "POST", headers });
    expect(isSameOriginRequest(post({ "Sec-Fetch-Site": "same-origin" }), { appUrl: APP })).toBe(true);
    expect(isSameOriginRequest(post({ Origin: "https://evil.example" }), { appUrl: APP })).toBe(false);
    expect(isSameOriginRequest(new Request("https://other.host/x", { method: "POST", headers: { Origin: "https://other.host" } }), { appUrl: APP })).toBe(true);
  });
});
