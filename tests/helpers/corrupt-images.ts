import { randomBytes } from "node:crypto";

/** Where a JPEG's first scan's coded data starts and ends (its closing EOI marker). */
function codedData(jpeg: Buffer): { start: number; end: number } {
  const sos = jpeg.indexOf(Buffer.from([0xff, 0xda]));
  return { start: sos + 2 + jpeg.readUInt16BE(sos + 2), end: jpeg.lastIndexOf(Buffer.from([0xff, 0xd9])) };
}

/**
 * The JPEG's headers (quantisation and Huffman tables, frame, scan) kept, its coded data replaced by
 * random bytes (no 0xFF, so no marker appears): `length` × the original's. Shorter noise runs out before
 * the picture ends (libjpeg warns "Corrupt JPEG data: premature end of data segment" and carries on);
 * noise as long as the original decodes to a picture without a single warning.
 */
export function noiseBehindJpegHeaders(jpeg: Buffer, length = 1): Buffer {
  const { start, end } = codedData(jpeg);
  const noise = randomBytes(Math.floor((end - start) * length));
  for (let i = 0; i < noise.length; i++) if (noise[i] === 0xff) noise[i] = 0x7f;
  return Buffer.concat([jpeg.subarray(0, start), noise, jpeg.subarray(end)]);
}

/** A PNG whose compressed pixel data has a run of bytes flipped: its chunk checksum no longer matches. */
export function damagedPng(png: Buffer): Buffer {
  const damaged = Buffer.from(png);
  const idat = damaged.indexOf("IDAT");
  for (let i = idat + 20; i < Math.min(idat + 60, damaged.length - 12); i++) damaged[i]! ^= 0x5a;
  return damaged;
}

/** An APP1 segment inserted after SOI: `payload` starts with "Exif\0\0" for an EXIF block. */
export function withApp1(jpeg: Buffer, payload: Buffer): Buffer {
  const head = Buffer.from([0xff, 0xe1, 0, 0]);
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), head, payload, jpeg.subarray(2)]);
}

/** An EXIF block (big-endian TIFF) with the given IFD0 entries: [tag, type, count, value or offset]. */
export function exifBlock(entries: [tag: number, type: number, count: number, value: number][]): Buffer {
  const tiff = Buffer.alloc(8 + 2 + entries.length * 12 + 4);
  tiff.write("MM", 0);
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4);
  tiff.writeUInt16BE(entries.length, 8);
  entries.forEach(([tag, type, count, value], i) => {
    const at = 10 + i * 12;
    tiff.writeUInt16BE(tag, at);
    tiff.writeUInt16BE(type, at + 2);
    tiff.writeUInt32BE(count, at + 4);
    if (type === 3 && count === 1) tiff.writeUInt16BE(value, at + 8);
    else tiff.writeUInt32BE(value, at + 8);
  });
  return Buffer.concat([Buffer.from("Exif\0\0", "latin1"), tiff]);
}
