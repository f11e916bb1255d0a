import { describe, expect, it } from "vitest";
import type { ApiKeyId, ServerId, TeamId } from "~/lib/ids";
import { newStoredName, quotaExceeded, uploadTargetOf } from "~/services/uploads/store-upload.server";
import { ERROR_STATUS } from "~/http/api-response.server";

const MB = 1024 * 1024;
const settings = { maxFileSizeMb: 100, allowedFileTypes: ["jpg"], defaultPublic: true, stripMetadata: false, convertToWebp: true };

describe("uploadTargetOf", () => {
  it("limits files to the smaller of the server's size and the instance's", () => {
    const source = { via: "api" as const, keyId: "k" as ApiKeyId };
    expect(uploadTargetOf({ serverId: "s" as ServerId, teamId: "t" as TeamId, tier: "free", settings }, 50 * MB, source)).toEqual({
      source,
      serverId: "s",
      teamId: "t",
      tier: "free",
      maxBytes: 50 * MB,
      allowedTypes: ["jpg"],
      defaultPublic: true,
      stripMetadata: false,
      convertToWebp: true,
    });
    expect(uploadTargetOf({ serverId: "s" as ServerId, teamId: "t" as TeamId, tier: "free", settings: { ...settings, maxFileSizeMb: 5 } }, 50 * MB, source).maxBytes).toBe(5 * MB);
  });
});

describe("quotaExceeded and stored names", () => {
  it("refuses with 413 and both figures", () => {
    const error = quotaExceeded(5 * 1024 ** 3, 5 * 1024 ** 3 + 1);
    expect(ERROR_STATUS[error.code]).toBe(413);
    expect(error.details).toEqual({ quota_bytes: 5 * 1024 ** 3, used_bytes: 5 * 1024 ** 3 + 1 });
  });

  it("generates 20 lower-case characters, with the extension when known, never twice", () => {
    expect(newStoredName()).toMatch(/^[0-9a-z]{20}$/);
    expect(newStoredName("webp")).toMatch(/^[0-9a-z]{20}\.webp$/);
    expect(newStoredName("")).toMatch(/^[0-9a-z]{20}$/);
    expect(new Set(Array.from({ length: 200 }, () => newStoredName())).size).toBe(200);
  });
});
