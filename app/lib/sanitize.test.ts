import { describe, expect, it } from "vitest";
import { z } from "zod";
import { cleaned, cleanText, sanitizeInput } from "~/lib/sanitize";

describe("sanitizeInput", () => {
  it("strips script blocks, tags, javascript: and inline handlers, then trims", () => {
    expect(sanitizeInput("  <script>alert(1)</script>Alice  ")).toBe("Alice");
    expect(sanitizeInput("<b>Bob</b> <img src=x onerror=alert(1)>")).toBe("Bob");
    expect(sanitizeInput("javascript:alert(1)")).toBe("alert(1)");
    expect(sanitizeInput("x onclick=steal()")).toBe("x steal()");
    expect(sanitizeInput("<scr<script>x</script>ipt>alert(1)</script>")).toBe("alert(1)");
  });

  it("leaves ordinary text alone and keeps inner spaces while typing", () => {
    expect(sanitizeInput("O'Brien & Sons <3", { trim: false })).toBe("O'Brien & Sons <3");
    expect(sanitizeInput("John ", { trim: false })).toBe("John ");
    expect(sanitizeInput("a@b.co")).toBe("a@b.co");
  });

  it("catches mixed case, spaced-out schemes and multi-line script blocks", () => {
    expect(sanitizeInput("<SCRIPT type='x'>\nsteal()\n</SCRIPT >Eve")).toBe("Eve");
    expect(sanitizeInput("JaVaScRiPt :alert(1)")).toBe("alert(1)");
    expect(sanitizeInput('<a href="x" ONMOUSEOVER = "go()">Mallory</a>')).toBe("Mallory");
  });

  it("keeps non-Latin text, emoji and comparisons that are not tags", () => {
    expect(sanitizeInput("Józef Wąs 🚓")).toBe("Józef Wąs 🚓");
    expect(sanitizeInput("警察 証拠")).toBe("警察 証拠");
    expect(sanitizeInput("a < b > c")).toBe("a < b > c");
    expect(sanitizeInput("")).toBe("");
  });

  it("leaves no tag behind in a long input made only of nested pieces", () => {
    const nested = "<scr".repeat(200) + "<script></script>" + "ipt>".repeat(200);
    const out = sanitizeInput(nested);
    expect(out).not.toContain("<");
    expect(out).toBe("ipt>".repeat(199));
  });
});

describe("cleanText and cleaned", () => {
  it("cleans strings and hands anything else to the schema unchanged", () => {
    expect(cleanText("<i>x</i>")).toBe("x");
    expect(cleanText(42)).toBe(42);
    expect(cleanText(null)).toBe(null);
  });

  it("runs a schema on the cleaned text", () => {
    const schema = cleaned(z.string().min(2));
    expect(schema.parse(" <b>Al</b> ")).toBe("Al");
    expect(schema.safeParse("<b>A</b>").success).toBe(false);
  });
});
