import { describe, expect, it } from "vitest";
import {
  DEFAULT_FILE_TYPES,
  describeAllowedTypes,
  FILE_INPUT_ACCEPT,
  FILE_TYPE_GROUPS,
  FILE_TYPES,
  findFileType,
  findFileTypeGroup,
  GAME_RESOURCE_NAMES,
  groupAllowedTypes,
  groupOf,
  normaliseFileTypes,
} from "~/lib/file-types";
import { serverFormSchema } from "~/lib/server-form";

describe("the file-type catalogue", () => {
  it("groups the types, and new servers allow every image, video and audio type and pdf (the spec's default selection plus media)", () => {
    expect(FILE_TYPE_GROUPS.map((g) => g.label)).toEqual(["Images", "Video", "Audio", "Documents", "Game resources"]);
    expect(DEFAULT_FILE_TYPES).toEqual([
      "jpg", "png", "gif", "webp", "avif", "heic",
      "mp4", "webm", "mov", "avi", "mkv",
      "mp3", "ogg", "weba", "wav", "m4a", "aac",
      "pdf",
    ]);
    expect(normaliseFileTypes(["jpg", "jpeg", "png", "gif", "mp4", "pdf"]).types.every((t) => DEFAULT_FILE_TYPES.includes(t))).toBe(true);
    expect(DEFAULT_FILE_TYPES).not.toContain("txt");
  });

  it("gives every name and alias to exactly one entry", () => {
    const names = FILE_TYPES.flatMap((t) => [t.name, ...t.aliases]);
    expect(new Set(names).size).toBe(names.length);
  });

  it("names the GTA resource containers, and not the archives of the same group", () => {
    expect(GAME_RESOURCE_NAMES).toContain("ytd");
    expect(GAME_RESOURCE_NAMES).toContain("rsc");
    expect(GAME_RESOURCE_NAMES).not.toContain("zip");
  });

  it("lets a file input offer every family and extension", () => {
    const accept = FILE_INPUT_ACCEPT.split(",");
    expect(accept.slice(0, 3)).toEqual(["image/*", "video/*", "audio/*"]);
    expect(accept).toContain(".jpeg");
    expect(accept).toContain(".ytd");
  });
});

describe("findFileType and groups", () => {
  it("finds an entry by name or alias, with any case, spaces or a leading dot", () => {
    expect(findFileType("JPEG")?.name).toBe("jpg");
    expect(findFileType(" .Opus ")?.name).toBe("ogg");
    expect(findFileType("m4v")?.name).toBe("mp4");
    expect(findFileType("exe")).toBeUndefined();
    expect(findFileType("")).toBeUndefined();
    expect(findFileType("image/png")).toBeUndefined();
  });

  it("knows each entry's group, and groups by id, label or the CLI's spelling", () => {
    expect(groupOf("heif")?.id).toBe("images");
    expect(groupOf("weba")?.id).toBe("audio");
    expect(groupOf("nope")).toBeUndefined();
    expect(findFileTypeGroup("Images")?.id).toBe("images");
    expect(findFileTypeGroup("game resources")?.id).toBe("game");
    expect(findFileTypeGroup("game-resources")?.id).toBe("game");
    expect(findFileTypeGroup("jpg")).toBeUndefined();
  });
});

describe("normaliseFileTypes", () => {
  it("folds aliases and group names into catalogue names, in catalogue order", () => {
    expect(normaliseFileTypes(["opus", "JPEG", ".png", "jpg"])).toEqual({ types: ["jpg", "png", "ogg"], unknown: [] });
    expect(normaliseFileTypes(["audio", "exe"])).toEqual({ types: ["mp3", "ogg", "weba", "wav", "m4a", "aac"], unknown: ["exe"] });
    expect(serverFormSchema.parse({ name: "A", allowedFileTypes: ["jpeg", "webp", "weba"] }).allowedFileTypes).toEqual(["jpg", "webp", "weba"]);
    const refused = serverFormSchema.safeParse({ name: "A", allowedFileTypes: [] });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe("Select at least one file type");
  });

  it("skips blanks (a lone dot is one), reports unknown names trimmed, and keeps nothing twice", () => {
    expect(normaliseFileTypes(["", "  ", ".", " .EXE ", "jpg", "jpe", "jpeg"])).toEqual({ types: ["jpg"], unknown: [".EXE"] });
    expect(normaliseFileTypes([])).toEqual({ types: [], unknown: [] });
  });
});

describe("describing an allow-list", () => {
  it("describes an allow-list by group, old MIME entries under Other", () => {
    expect(describeAllowedTypes(["jpg", "jpeg", "png", "gif", "mp4", "pdf"])).toBe("Images (jpg, png, gif), Video (mp4), Documents (pdf)");
    expect(groupAllowedTypes(["weba", "image/*"])).toEqual([
      { label: "Audio", types: ["weba"] },
      { label: "Other", types: ["image/*"] },
    ]);
  });

  it("says none for an empty list and lists an unknown entry once", () => {
    expect(describeAllowedTypes([])).toBe("none");
    expect(groupAllowedTypes(["*", "*", "tiff"])).toEqual([{ label: "Other", types: ["*", "tiff"] }]);
  });
});
