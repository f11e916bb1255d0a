import { describe, expect, it } from "vitest";
import { extensionForType, parsePresignInput, PRESIGN_DEFAULT_SECONDS, PRESIGN_MAX_SECONDS } from "~/services/uploads/upload-grants.server";
import { refusal } from "../../../tests/helpers/refusals.ts";

const MB = 1024 * 1024;

describe("extensionForType: the promised name's extension", () => {
  it("comes from a MIME type, with its parameters, or an extension", () => {
    expect(extensionForType("image/webp")).toBe("webp");
    expect(extensionForType(" Audio/WebM; codecs=opus ")).toBe("webm");
    expect(extensionForType("image/jpeg")).toBe("jpg");
    expect(extensionForType("video/quicktime")).toBe("mov");
    expect(extensionForType("audio/x-wav")).toBe("wav");
    expect(extensionForType(".PNG")).toBe("png");
    expect(extensionForType("mp4")).toBe("mp4");
  });

  it("is nothing for a bare kind, an odd subtype, or anything that is not a short name", () => {
    for (const value of ["image", "video/", "image/svg+xml", "application/vnd.ms-excel", "x", "toolongext", "image/../../etc", "", 42, null, undefined, "constructor", "image/constructor"]) {
      expect(extensionForType(value), String(value)).toBeUndefined();
    }
  });

  it("is only ever a few lower-case letters and digits, whatever the client sends", () => {
    for (const value of ["../x", "a/b/c", "image/PNG%00.html", "x/y z", "\u0000/png", "video/mp4\r\nx: y"]) {
      const ext = extensionForType(value);
      if (ext !== undefined) expect(ext, value).toMatch(/^[a-z0-9]{1,8}$/);
    }
  });
});

describe("parsePresignInput", () => {
  it("defaults to 300 s, the `other` category and a generated name without extension", () => {
    const { expiresIn, constraints } = parsePresignInput({}, 50 * MB);
    expect(expiresIn).toBe(PRESIGN_DEFAULT_SECONDS);
    expect(constraints.category).toBe("other");
    expect(constraints.filename).toMatch(/^[0-9a-z]{20}$/);
    expect(Object.keys(constraints).sort()).toEqual(["category", "filename"]);
  });

  it("binds the category, player, size and extension it is given", () => {
    const { expiresIn, constraints } = parsePresignInput(
      { expiresIn: "60", category: "Phone Photos", playerName: " Niko ", playerIdentifier: 12345, maxSizeMb: "2.5", fileType: "image/webp" },
      50 * MB,
    );
    expect(expiresIn).toBe(60);
    expect(constraints).toMatchObject({ category: "phone_photos", player_name: "Niko", player_identifier: "12345", max_bytes: 2.5 * MB });
    expect(constraints.filename).toMatch(/^[0-9a-z]{20}\.webp$/);
  });

  it("never promises more bytes than the server takes", () => {
    expect(parsePresignInput({ maxSizeMb: 500 }, 50 * MB).constraints.max_bytes).toBe(50 * MB);
  });

  it("takes 1 to 3600 whole seconds", () => {
    expect(parsePresignInput({ expiresIn: 1 }, MB).expiresIn).toBe(1);
    expect(parsePresignInput({ expiresIn: PRESIGN_MAX_SECONDS }, MB).expiresIn).toBe(PRESIGN_MAX_SECONDS);
    for (const expiresIn of [0, -5, 3601, 1.5, "abc", "1e9", Number.POSITIVE_INFINITY]) {
      expect(refusal(() => parsePresignInput({ expiresIn }, MB)).details, String(expiresIn)).toEqual({ field: "expires_in" });
    }
  });

  it("refuses bad sizes and overlong or non-text bindings", () => {
    expect(refusal(() => parsePresignInput({ maxSizeMb: 0 }, MB)).message).toBe("max_size_mb must be a positive number");
    expect(refusal(() => parsePresignInput({ playerName: "p".repeat(101) }, MB)).message).toBe("player_name must be at most 100 characters");
    expect(refusal(() => parsePresignInput({ category: { x: 1 } }, MB)).message).toBe("category must be a string");
  });

  it("makes a different name for each grant", () => {
    const names = new Set(Array.from({ length: 50 }, () => parsePresignInput({}, MB).constraints.filename));
    expect(names.size).toBe(50);
  });
});
