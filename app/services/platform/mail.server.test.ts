import { describe, expect, it } from "vitest";
import { escapeHtml } from "~/services/platform/mail.server";

describe("escapeHtml", () => {
  it("escapes the five characters that matter and nothing else", () => {
    expect(escapeHtml(`<a href="x" onclick='y'>Tom & Jerry</a>`)).toBe("&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;Tom &amp; Jerry&lt;/a&gt;");
    expect(escapeHtml("Zoë 🚓 &amp;")).toBe("Zoë 🚓 &amp;amp;");
    expect(escapeHtml("")).toBe("");
  });
});
