import { describe, expect, it } from "vitest";
import { parseFileUrl, videoFormatRequest } from "~/http/file-path.server";

const SAFARI_MAC = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15";
const CHROME_MAC = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
const CHROME_IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0 Mobile/15E148 Safari/604.1";
const ANDROID = "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36";
const CFX_NUI = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/103.0.5060.134 Safari/537.36";

describe("parseFileUrl", () => {
  it("splits /f/{server}/{category}/{filename} and keeps the query as sent", () => {
    expect(parseFileUrl("/f/abc123/screenshots/x1.webp")).toEqual({ serverId: "abc123", category: "screenshots", filename: "x1.webp", query: "" });
    expect(parseFileUrl("/f/abc123/screenshots/x1.webp?w=320&format=auto")).toEqual({
      serverId: "abc123",
      category: "screenshots",
      filename: "x1.webp",
      query: "w=320&format=auto",
    });
  });

  it("accepts one trailing slash and an empty query", () => {
    expect(parseFileUrl("/f/a/b/c/")).toEqual({ serverId: "a", category: "b", filename: "c", query: "" });
    expect(parseFileUrl("/f/a/b/c?")).toEqual({ serverId: "a", category: "b", filename: "c", query: "" });
  });

  it("refuses any other shape", () => {
    for (const url of ["/f/a/b", "/f/a/b/c/d", "/f/a/b/c//", "/f", "/f/", "/f/a/b/c/d?x=/y/z"]) {
      expect(parseFileUrl(url), url).toBeNull();
    }
  });

  it("percent-decodes each segment, so an encoded slash cannot add one, and a bad escape is no file", () => {
    expect(parseFileUrl("/f/abc/phone%5Fphotos/a%2Eb.png")).toMatchObject({ category: "phone_photos", filename: "a.b.png" });
    expect(parseFileUrl("/f/abc/cat/..%2F..%2Fetc%2Fpasswd")).toMatchObject({ filename: "../../etc/passwd" });
    expect(parseFileUrl("/f/abc/cat/%E0%A4%A.png")).toBeNull();
    expect(parseFileUrl("/f/abc/cat/%")).toBeNull();
  });

  it("decodes unicode names and keeps a ? inside the query intact", () => {
    expect(parseFileUrl("/f/abc/cat/%C5%BC%C3%B3%C5%82w.png?q=a?b")).toEqual({ serverId: "abc", category: "cat", filename: "żółw.png", query: "q=a?b" });
  });
});

describe("videoFormatRequest", () => {
  const q = (query: string) => new URLSearchParams(query);

  it("gives the MP4 copy to format=mp4, to anyone, without varying", () => {
    expect(videoFormatRequest(q("format=mp4"), CHROME_MAC)).toEqual({ copy: true, varyUserAgent: false });
    expect(videoFormatRequest(q("format=mp4&w=100"), undefined)).toEqual({ copy: true, varyUserAgent: false });
  });

  it("gives format=auto the copy on Safari and every iPhone browser, the original elsewhere", () => {
    expect(videoFormatRequest(q("format=auto"), SAFARI_MAC)).toEqual({ copy: true, varyUserAgent: true });
    expect(videoFormatRequest(q("format=auto"), CHROME_IPHONE)).toEqual({ copy: true, varyUserAgent: true });
    expect(videoFormatRequest(q("format=auto"), CHROME_MAC)).toEqual({ copy: false, varyUserAgent: true });
    expect(videoFormatRequest(q("format=auto"), ANDROID)).toEqual({ copy: false, varyUserAgent: true });
    expect(videoFormatRequest(q("format=auto"), CFX_NUI)).toEqual({ copy: false, varyUserAgent: true });
    expect(videoFormatRequest(q("format=auto"), undefined)).toEqual({ copy: false, varyUserAgent: true });
  });

  it("leaves sizes, presets and other formats to the poster frame", () => {
    expect(videoFormatRequest(q("format=auto&w=320"), SAFARI_MAC)).toBeNull();
    expect(videoFormatRequest(q("format=auto&preset=thumb"), SAFARI_MAC)).toBeNull();
    expect(videoFormatRequest(q("format=webp"), SAFARI_MAC)).toBeNull();
    expect(videoFormatRequest(q("format=MP4"), SAFARI_MAC)).toBeNull();
    expect(videoFormatRequest(q(""), SAFARI_MAC)).toBeNull();
  });
});
