import { describe, expect, it } from "vitest";
import { joinBytes, sizeOf, tailOf } from "../../storage/blob-store.ts";

const bytes = (from: number, length: number) => Buffer.from(Array.from({ length }, (_, i) => (from + i) % 256));

describe("bytes held as the chunks they arrived in", () => {
  const whole = bytes(0, 300);
  const chunks = [whole.subarray(0, 120), whole.subarray(120, 290), whole.subarray(290)];

  it("joins them into the same bytes, and a single chunk into the same bytes without a copy", () => {
    expect(joinBytes(chunks).equals(whole)).toBe(true);
    const one = joinBytes([chunks[1]!]);
    expect(one.equals(chunks[1]!)).toBe(true);
    expect(one.buffer).toBe(whole.buffer);
    expect(sizeOf(chunks)).toBe(300);
  });

  it("gives the last bytes across chunk boundaries, and all of them when fewer are held", () => {
    expect(tailOf(chunks, 5).equals(whole.subarray(295))).toBe(true);
    expect(tailOf(chunks, 15).equals(whole.subarray(285))).toBe(true);
    expect(tailOf(chunks, 200).equals(whole.subarray(100))).toBe(true);
    expect(tailOf(chunks, 4096).equals(whole)).toBe(true);
    expect(tailOf(whole, 7).equals(whole.subarray(293))).toBe(true);
  });
});
