import { describe, expect, it } from "vitest";
import { adminDeleteConfirm, parseServerForm, quotaExceededMessage, retentionRuleSchema, serverFormSchema } from "~/lib/server-form";

function form(fields: Record<string, string | string[]>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) data.append(name, v);
  return data;
}

describe("parseServerForm", () => {
  it("takes a valid server with the defaults filled in", () => {
    expect(parseServerForm(form({ name: " My RP_Server-1 ", allowedFileTypes: ["jpeg", "mp4"] }), "Error creating server")).toEqual({
      ok: true,
      data: { name: "My RP_Server-1", description: null, endpointUrl: null, maxFileSizeMb: 50, allowedFileTypes: ["jpg", "mp4"] },
    });
  });

  it("names the first bad field with the spec's toast title", () => {
    expect(parseServerForm(form({ name: "Bad/Name", allowedFileTypes: "jpg" }), "Error creating server")).toMatchObject({
      ok: false,
      first: { field: "name", message: "Server name can only contain letters, numbers, spaces, hyphens, and underscores", toastTitle: "Invalid server name" },
    });
    expect(parseServerForm(form({ name: "Ok", endpointUrl: "ftp://x", allowedFileTypes: "jpg" }), "T")).toMatchObject({ first: { field: "endpointUrl", toastTitle: "Invalid URL" } });
    expect(parseServerForm(form({ name: "Ok", maxFileSizeMb: "1.5", allowedFileTypes: "jpg" }), "T")).toMatchObject({ first: { field: "maxFileSizeMb", toastTitle: "Invalid file size" } });
    expect(parseServerForm(form({ name: "Ok" }), "Error creating server")).toMatchObject({ first: { field: "allowedFileTypes", message: "Select at least one file type", toastTitle: "Error creating server" } });
  });

  it("reports every bad field, one message each", () => {
    const result = parseServerForm(form({ name: "", endpointUrl: "nope", maxFileSizeMb: "0", allowedFileTypes: "exe" }), "T");
    expect(result.ok).toBe(false);
    if (!result.ok) expect(Object.keys(result.errors).sort()).toEqual(["allowedFileTypes", "endpointUrl", "maxFileSizeMb", "name"]);
    // An empty name fails two rules; the first, most useful message is the one shown.
    if (!result.ok) expect(result.errors.name).toBe("Server name is required");
  });
});

describe("serverFormSchema fields", () => {
  const parse = (over: Record<string, unknown>) => serverFormSchema.safeParse({ name: "Ok", allowedFileTypes: ["jpg"], ...over });

  it("cleans markup from names and descriptions, and calls a markup-only name missing", () => {
    expect(parse({ name: "<b>LSPD</b>" }).data?.name).toBe("LSPD");
    expect(parse({ name: "<i></i>" }).error?.issues[0]?.message).toBe("Server name is required");
    expect(parse({ description: " <script>x</script> " }).data?.description).toBeNull();
    expect(parse({ description: "d".repeat(501) }).success).toBe(false);
  });

  it("takes http(s) endpoints up to 2048 characters", () => {
    expect(parse({ endpointUrl: " https://game.example:30120/hook " }).data?.endpointUrl).toBe("https://game.example:30120/hook");
    expect(parse({ endpointUrl: "javascript:alert(1)" }).success).toBe(false);
    expect(parse({ endpointUrl: `https://x.example/${"a".repeat(2040)}` }).success).toBe(false);
  });

  it("takes whole MB sizes from 1 to 10000, blank meaning 50", () => {
    expect(parse({ maxFileSizeMb: " 10000 " }).data?.maxFileSizeMb).toBe(10_000);
    expect(parse({ maxFileSizeMb: "" }).data?.maxFileSizeMb).toBe(50);
    for (const value of ["0", "10001", "2.5", "abc", "-1"]) expect(parse({ maxFileSizeMb: value }).success, value).toBe(false);
  });

  it("holds names to 100 characters", () => {
    expect(parse({ name: "n".repeat(100) }).success).toBe(true);
    expect(parse({ name: "n".repeat(101) }).success).toBe(false);
  });
});

describe("retention rules", () => {
  it("take a category slug and 1–3650 whole days", () => {
    expect(retentionRuleSchema.parse({ category: " Mugshots ", days: "30" })).toEqual({ category: "mugshots", days: 30 });
    for (const days of ["0", "3651", "1.5", "", "x"]) expect(retentionRuleSchema.safeParse({ category: "a", days }).success, days).toBe(false);
    for (const category of ["", "a b", "c".repeat(51), "../x"]) expect(retentionRuleSchema.safeParse({ category, days: 1 }).success, category).toBe(false);
  });
});

describe("server form messages", () => {
  it("round quota figures to two decimals and quote the server's name", () => {
    expect(quotaExceededMessage(5, 4.987654)).toBe("Creating this server would exceed your storage quota of 5GB. Current usage: 4.99GB");
    expect(adminDeleteConfirm('LS "RP"')).toBe('Are you sure you want to delete server "LS "RP""? This action cannot be undone.');
  });
});
