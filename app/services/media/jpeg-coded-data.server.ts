/**
 * Walks the Huffman-coded data of a sequential JPEG without decoding pixels: every block must be made
 * of valid codes, stay within its 64 coefficients, and the data must end where the picture does. libjpeg
 * accepts noise behind valid headers without a word as long as it decodes to something: it never checks
 * that a block stays within 64 coefficients, and it stops reading once it has every block, so bytes
 * left over go unseen. Progressive and arithmetic-coded files are left to the decoder (null).
 */

interface Component {
  id: number;
  h: number;
  v: number;
}

/** A code table for 16-bit lookups: (length << 8) | symbol, 0 for a bit pattern no code starts. */
type CodeTable = Uint16Array;

/** A problem in the coded data, in libjpeg's words where it has them. */
export type CodedDataProblem = string;

function buildTable(counts: Uint8Array, symbols: Uint8Array): CodeTable | null {
  const table = new Uint16Array(1 << 16);
  let code = 0;
  let k = 0;
  for (let length = 1; length <= 16; length++) {
    for (let i = 0; i < counts[length - 1]!; i++) {
      if (k >= symbols.length || code >= 1 << length) return null;
      const shift = 16 - length;
      table.fill((length << 8) | symbols[k++]!, code << shift, (code + 1) << shift);
      code++;
    }
    code <<= 1;
  }
  return table;
}

/** Reads bits MSB first from one restart interval's bytes (stuffing removed, followed by 3 zero bytes of padding). */
class BitReader {
  private bit = 0;
  constructor(
    private readonly bytes: Uint8Array,
    private readonly length: number,
  ) {}

  peek16(): number {
    const at = this.bit >>> 3;
    const b = this.bytes;
    return ((((b[at]! << 16) | (b[at + 1]! << 8) | b[at + 2]!) >>> (8 - (this.bit & 7))) & 0xffff);
  }

  skip(bits: number): void {
    this.bit += bits;
  }

  /** Whether the reader went past the data it was given (the decoder would have run out). */
  get overrun(): boolean {
    return this.bit > this.length * 8;
  }

  /** Whole bytes left unread after the last block (padding to the byte boundary excluded). */
  get bytesLeft(): number {
    return this.length - Math.ceil(this.bit / 8);
  }
}

/** What the bit reader may read past an interval's end before it notices: zeros. */
const READ_AHEAD = Buffer.alloc(3);

/** One scan's coded data split at its restart markers, stuffed zero bytes removed; `end` is where its closing marker starts. */
function scanIntervals(jpeg: Buffer, start: number): { intervals: Uint8Array[]; end: number; problem?: CodedDataProblem } {
  const intervals: Uint8Array[] = [];
  let chunks: Buffer[] = [];
  let from = start;
  let expectedRst = 0;
  let i = start;
  for (;;) {
    const ff = jpeg.indexOf(0xff, i);
    if (ff < 0 || ff + 1 >= jpeg.length) return { intervals, end: jpeg.length, problem: "Premature end of JPEG file" };
    const next = jpeg[ff + 1]!;
    if (next === 0x00) {
      chunks.push(jpeg.subarray(from, ff + 1));
      from = i = ff + 2;
      continue;
    }
    chunks.push(jpeg.subarray(from, ff));
    intervals.push(Buffer.concat([...chunks, READ_AHEAD]));
    chunks = [];
    if (next >= 0xd0 && next <= 0xd7) {
      if (next - 0xd0 !== expectedRst) return { intervals, end: ff, problem: `Corrupt JPEG data: found marker 0x${next.toString(16)} instead of RST${expectedRst}` };
      expectedRst = (expectedRst + 1) % 8;
      from = i = ff + 2;
      continue;
    }
    return { intervals, end: ff };
  }
}

interface Frame {
  width: number;
  height: number;
  components: Component[];
  hMax: number;
  vMax: number;
}

/** Checks one scan; null when its data is whole, else the problem. */
function checkScan(jpeg: Buffer, at: number, frame: Frame, dc: (CodeTable | null)[], ac: (CodeTable | null)[], restartInterval: number): { end: number; problem: CodedDataProblem | null } {
  const count = jpeg[at + 4]!;
  const scanComponents: { blocksH: number; blocksV: number; dc: CodeTable; ac: CodeTable; component: Component }[] = [];
  for (let c = 0; c < count; c++) {
    const id = jpeg[at + 5 + c * 2]!;
    const tables = jpeg[at + 6 + c * 2]!;
    const component = frame.components.find((candidate) => candidate.id === id);
    const dcTable = dc[tables >> 4];
    const acTable = ac[tables & 15];
    if (!component || !dcTable || !acTable) return { end: at, problem: "Corrupt JPEG data: scan names a component or table that does not exist" };
    scanComponents.push({ blocksH: component.h, blocksV: component.v, dc: dcTable, ac: acTable, component });
  }
  const dataStart = at + 2 + jpeg.readUInt16BE(at + 2);
  let mcus: number;
  if (count === 1) {
    // A single-component scan is not interleaved: one block per MCU over the component's own size.
    const { component } = scanComponents[0]!;
    const across = Math.ceil(Math.ceil((frame.width * component.h) / frame.hMax) / 8);
    const down = Math.ceil(Math.ceil((frame.height * component.v) / frame.vMax) / 8);
    mcus = across * down;
    scanComponents[0]!.blocksH = 1;
    scanComponents[0]!.blocksV = 1;
  } else {
    mcus = Math.ceil(frame.width / (8 * frame.hMax)) * Math.ceil(frame.height / (8 * frame.vMax));
  }
  const { intervals, end, problem } = scanIntervals(jpeg, dataStart);
  if (problem) return { end, problem };
  const perInterval = restartInterval || mcus;
  if (intervals.length !== Math.ceil(mcus / perInterval)) return { end, problem: "Corrupt JPEG data: the number of restart intervals does not match the picture" };
  for (let n = 0; n < intervals.length; n++) {
    const reader = new BitReader(intervals[n]!, intervals[n]!.length - READ_AHEAD.length);
    const inThis = Math.min(perInterval, mcus - n * perInterval);
    for (let m = 0; m < inThis; m++) {
      for (const sc of scanComponents) {
        for (let b = sc.blocksH * sc.blocksV; b > 0; b--) {
          const dcEntry = sc.dc[reader.peek16()]!;
          if (!dcEntry) return { end, problem: "Corrupt JPEG data: bad Huffman code" };
          reader.skip(dcEntry >>> 8);
          const dcSize = dcEntry & 0xff;
          if (dcSize > 11) return { end, problem: "Corrupt JPEG data: bad DC coefficient size" };
          reader.skip(dcSize);
          for (let k = 1; k < 64; ) {
            const acEntry = sc.ac[reader.peek16()]!;
            if (!acEntry) return { end, problem: "Corrupt JPEG data: bad Huffman code" };
            reader.skip(acEntry >>> 8);
            const run = (acEntry >>> 4) & 15;
            const size = acEntry & 15;
            if (size === 0) {
              if (run !== 15) break;
              k += 16;
              continue;
            }
            k += run;
            if (k > 63) return { end, problem: "Corrupt JPEG data: a block has more than 64 coefficients" };
            reader.skip(size);
            k++;
          }
          if (reader.overrun) return { end, problem: "Corrupt JPEG data: premature end of data segment" };
        }
      }
    }
    // Up to a few bytes of slack, as some encoders leave; noise leaves kilobytes (or breaks a rule above first).
    if (reader.bytesLeft > 4) return { end, problem: `Corrupt JPEG data: ${reader.bytesLeft} extraneous bytes after the picture` };
  }
  return { end, problem: null };
}

/**
 * Null when the JPEG's coded data is whole or is not this walker's to judge (progressive, arithmetic
 * coding, a height given only after the data); else the problem, in words for the refusal.
 */
export function findCodedDataProblem(jpeg: Buffer): CodedDataProblem | null {
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8) return null;
  const dc: (CodeTable | null)[] = [null, null, null, null];
  const ac: (CodeTable | null)[] = [null, null, null, null];
  let frame: Frame | null = null;
  let restartInterval = 0;
  let i = 2;
  while (i + 3 < jpeg.length) {
    if (jpeg[i] !== 0xff) return null;
    const marker = jpeg[i + 1]!;
    if (marker === 0xff) {
      i++;
      continue;
    }
    if (marker === 0xd9) return null;
    const segmentEnd = i + 2 + jpeg.readUInt16BE(i + 2);
    if (segmentEnd > jpeg.length) return null;
    if (marker === 0xc0 || marker === 0xc1) {
      const height = jpeg.readUInt16BE(i + 5);
      const width = jpeg.readUInt16BE(i + 7);
      const components: Component[] = [];
      for (let c = 0; c < jpeg[i + 9]!; c++) {
        const sampling = jpeg[i + 11 + c * 3]!;
        components.push({ id: jpeg[i + 10 + c * 3]!, h: sampling >> 4, v: sampling & 15 });
      }
      if (!height || !width || components.some((c) => !c.h || !c.v)) return null;
      frame = { width, height, components, hMax: Math.max(...components.map((c) => c.h)), vMax: Math.max(...components.map((c) => c.v)) };
    } else if (marker >= 0xc2 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return null;
    } else if (marker === 0xc4) {
      for (let at = i + 4; at < segmentEnd; ) {
        const kind = jpeg[at]!;
        const counts = jpeg.subarray(at + 1, at + 17);
        const total = counts.reduce((sum, n) => sum + n, 0);
        const table = buildTable(counts, jpeg.subarray(at + 17, at + 17 + total));
        if (!table) return "Corrupt JPEG data: bad Huffman table";
        (kind >> 4 ? ac : dc)[kind & 3] = table;
        at += 17 + total;
      }
    } else if (marker === 0xdd) {
      restartInterval = jpeg.readUInt16BE(i + 4);
    } else if (marker === 0xda) {
      if (!frame) return null;
      const scan = checkScan(jpeg, i, frame, dc, ac, restartInterval);
      if (scan.problem) return scan.problem;
      i = scan.end;
      continue;
    }
    i = segmentEnd;
  }
  return null;
}
