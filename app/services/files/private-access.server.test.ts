import { describe, expect, it } from "vitest";
import type { ServerId } from "~/lib/ids";
import { fileUrlSignature } from "~/services/files/private-access.server";

describe("signed file URLs", () => {
  const path = { server_id: "srv1" as ServerId, category: "mugshots", filename: "x1.png" };

  it("sign the exact path and expiry with the server's secret, as 43 base64url characters", () => {
    const signature = fileUrlSignature("secret", path, 1_800_000_000);
    expect(signature).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(fileUrlSignature("secret", path, 1_800_000_000)).toBe(signature);
    expect(fileUrlSignature("other", path, 1_800_000_000)).not.toBe(signature);
    expect(fileUrlSignature("secret", path, 1_800_000_001)).not.toBe(signature);
    expect(fileUrlSignature("secret", { ...path, filename: "x2.png" }, 1_800_000_000)).not.toBe(signature);
    expect(fileUrlSignature("secret", { ...path, category: "mugshots/x1.png", filename: "" }, 1_800_000_000)).not.toBe(signature);
    // The expiry is kept apart from the path: "x1" until 1800000023 is not "x11" until 800000023.
    expect(fileUrlSignature("secret", { ...path, filename: "x1" }, 1_800_000_023)).not.toBe(fileUrlSignature("secret", { ...path, filename: "x11" }, 800_000_023));
  });
});
