import { describe, expect, it } from "vitest";
import { mergeFields, METADATA_MAX_BYTES, parseUploadFields, sanitiseCategory, sanitiseDisplayName } from "~/services/uploads/upload-fields.server";
import { refusal } from "../../../tests/helpers/refusals.ts";

describe("sanitiseDisplayName", () => {
  it("keeps the last path segment, without control characters, quotes or angle brackets", () => {
    expect(sanitiseDisplayName("C:\\Users\\me\\Pictures\\shot 1.png")).toBe("shot 1.png");
    expect(sanitiseDisplayName("../../etc/passwd")).toBe("passwd");
    expect(sanitiseDisplayName('a"b<c>d\u0000\u001f\u007f.png')).toBe("abcd.png");
    expect(sanitiseDisplayName("  zdjęcie 📷.jpg ")).toBe("zdjęcie 📷.jpg");
  });

  it("is nothing for a blank, a dot name or a path ending in a separator", () => {
    for (const value of [undefined, "", "   ", ".", "..", "folder/", "a/..", '"<>"']) expect(sanitiseDisplayName(value), String(value)).toBeUndefined();
  });

  it("cuts a long name to 200 characters", () => {
    expect(sanitiseDisplayName(`${"n".repeat(300)}.png`)).toHaveLength(200);
  });
});

describe("parseUploadFields", () => {
  it("reads every documented field and its aliases", () => {
    expect(
      parseUploadFields({
        folder: "Phone Photos",
        isPublic: "no",
        retentionExempt: "1",
        playerName: "Niko <b>Bellic</b>",
        playerIdentifier: " license:abc123 ",
        metadata: '{"street":"Grove"}',
        name: "C:\\shots\\sunset.png",
        serverId: "srv1",
        case: "LSPD-2026-001",
      }),
    ).toEqual({
      category: "phone_photos",
      isPublic: false,
      retentionExempt: true,
      playerName: "Niko Bellic",
      playerIdentifier: "license:abc123",
      metadata: { street: "Grove" },
      filename: "sunset.png",
      serverId: "srv1",
      caseNumber: "LSPD-2026-001",
    });
  });

  it("leaves every field undefined when nothing is sent, and prefers the snake_case names", () => {
    expect(Object.values(parseUploadFields({})).every((value) => value === undefined)).toBe(true);
    expect(parseUploadFields({ category: "a", folder: "b", is_public: "true", public: "false" })).toMatchObject({ category: "a", isPublic: true });
  });

  it("reads booleans as scripts write them, and refuses anything else", () => {
    for (const yes of [true, "true", "TRUE", " 1 ", "yes", "on", 1]) expect(parseUploadFields({ is_public: yes }).isPublic, String(yes)).toBe(true);
    for (const no of [false, "false", "0", "No", "off", 0]) expect(parseUploadFields({ is_public: no }).isPublic, String(no)).toBe(false);
    expect(parseUploadFields({ is_public: "" }).isPublic).toBeUndefined();
    expect(refusal(() => parseUploadFields({ is_public: "maybe" }))).toMatchObject({ code: "invalid_request", details: { field: "is_public" } });
  });

  it("takes numbers as text, strips control characters, and refuses objects for text fields", () => {
    expect(parseUploadFields({ player_identifier: 42, player_name: "Jo\u0007hn" })).toMatchObject({ playerIdentifier: "42", playerName: "John" });
    expect(refusal(() => parseUploadFields({ player_name: { a: 1 } }))).toMatchObject({ message: "player_name must be a string", details: { field: "player_name" } });
    expect(refusal(() => parseUploadFields({ category: ["a"] })).details).toEqual({ field: "category" });
  });

  it("holds each text field to its length", () => {
    expect(parseUploadFields({ player_name: "p".repeat(100) }).playerName).toHaveLength(100);
    expect(refusal(() => parseUploadFields({ player_name: "p".repeat(101) })).message).toBe("player_name must be at most 100 characters");
    expect(refusal(() => parseUploadFields({ player_identifier: "i".repeat(201) })).message).toBe("player_identifier must be at most 200 characters");
    expect(refusal(() => parseUploadFields({ category: "c".repeat(201) })).message).toBe("category must be at most 200 characters");
    expect(parseUploadFields({ category: "c".repeat(200) }).category).toHaveLength(40);
  });

  it("reads a name that is only markup as no name", () => {
    expect(parseUploadFields({ player_name: "<script>x</script>", filename: "<b></b>" })).toMatchObject({ playerName: undefined, filename: undefined });
  });

  it("takes metadata as an object or JSON text of at most 16 KB, in bytes", () => {
    expect(parseUploadFields({ metadata: { a: [1, 2] } }).metadata).toEqual({ a: [1, 2] });
    expect(parseUploadFields({ metadata: "" }).metadata).toBeUndefined();
    for (const bad of ["[1]", "null", "5", "{oops", [1], 7]) {
      expect(refusal(() => parseUploadFields({ metadata: bad })), String(bad)).toMatchObject({ code: "invalid_metadata", message: "metadata must be a JSON object" });
    }
    const big = JSON.stringify({ note: "ü".repeat(METADATA_MAX_BYTES / 2) });
    expect(refusal(() => parseUploadFields({ metadata: big })).message).toBe("metadata must be at most 16 KB");
    expect(refusal(() => parseUploadFields({ metadata: { note: "x".repeat(METADATA_MAX_BYTES) } })).message).toBe("metadata must be at most 16 KB");
    // Text is measured as sent, before parsing: padding counts.
    expect(refusal(() => parseUploadFields({ metadata: `{"a":1}${" ".repeat(METADATA_MAX_BYTES)}` })).message).toBe("metadata must be at most 16 KB");
  });

  it("checks a case number the way cases do", () => {
    expect(parseUploadFields({ case: "" }).caseNumber).toBeUndefined();
    expect(refusal(() => parseUploadFields({ case: "no spaces allowed" }))).toMatchObject({ code: "invalid_request", details: { field: "case" } });
  });
});

describe("mergeFields and sanitiseCategory", () => {
  it("let later sources win field by field, and never with undefined", () => {
    const query = parseUploadFields({ category: "from_query", player_name: "Q" });
    const body = parseUploadFields({ category: "from_body" });
    expect(mergeFields(query, body)).toEqual({ category: "from_body", playerName: "Q" });
    expect(mergeFields()).toEqual({});
  });

  it("fold a category into its slug", () => {
    expect(sanitiseCategory("Police Evidence!")).toBe("police_evidence");
    expect(sanitiseCategory(undefined)).toBe("other");
  });
});
