import { describe, expect, it } from "vitest";
import { canonicalUrl, DISALLOWED_PATHS, organizationLd, PUBLIC_PAGES, seoMeta, serializeJsonLd } from "~/lib/seo";

describe("canonical URLs and meta tags", () => {
  it("give the home page its slash and other pages their path", () => {
    expect(canonicalUrl("https://stash.example", "/")).toBe("https://stash.example/");
    expect(canonicalUrl("https://stash.example", "/pricing")).toBe("https://stash.example/pricing");
  });

  it("carry the title with the product name, the canonical link and the shared image", () => {
    const meta = seoMeta({ title: "Pricing", description: "Plans", keywords: ["fivem", "cdn"], path: "/pricing", appName: "Evidence Locker", appUrl: "https://stash.example" });
    expect(meta).toEqual(
      expect.arrayContaining([
        { name: "keywords", content: "fivem, cdn" },
        { tagName: "link", rel: "canonical", href: "https://stash.example/pricing" },
      ]),
    );
    expect(JSON.stringify(meta)).toContain("Evidence Locker");
    expect(JSON.stringify(meta)).toContain("https://stash.example/og-image.png");
  });

  it("list no signed-in page for crawlers", () => {
    for (const page of PUBLIC_PAGES) expect(DISALLOWED_PATHS.some((path) => page.path.startsWith(path)), page.path).toBe(false);
  });
});

describe("serializeJsonLd", () => {
  it("cannot close its script tag, and reads back as the same data", () => {
    const data = { ...organizationLd("</script><script>alert(1)</script>", "https://stash.example"), note: "a <b> & 'c' \u2028" };
    const text = serializeJsonLd(data);
    expect(text).not.toContain("<");
    expect(JSON.parse(text)).toEqual(data);
  });
});
