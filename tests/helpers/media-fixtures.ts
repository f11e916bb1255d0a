import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import sharp from "sharp";

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A few hundred bytes that claim width × height pixels: a decompression bomb's header. */
export function pngBomb(width = 100_000, height = 100_000): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", zlib.deflateSync(Buffer.alloc(64))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** An animated GIF of `frames` tiny frames. */
export async function gifWithFrames(frames: number): Promise<Buffer> {
  // Each frame shows its number in binary: identical frames would be merged by the encoder.
  const pixels = Buffer.alloc(4 * 4 * 3 * frames);
  for (let f = 0; f < frames; f++) {
    for (let p = 0; p < 16; p++) pixels.fill((f >> p) & 1 ? 255 : 0, (f * 16 + p) * 3, (f * 16 + p + 1) * 3);
  }
  return sharp(pixels, { raw: { width: 4, height: 4 * frames, channels: 3, pageHeight: 4 } }).gif({ delay: 40 }).toBuffer();
}

/** A short test-pattern clip made by ffmpeg (lavfi source); VP9 in WebM or H.264 in MP4. */
export function testClip(kind: "webm" | "mp4", seconds = 2, size = "320x240"): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stash-clip-"));
  const out = path.join(dir, `clip.${kind}`);
  const codec = kind === "webm" ? ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8"] : ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"];
  try {
    execFileSync("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", `testsrc=size=${size}:rate=10`, "-t", String(seconds), ...codec, "-y", out]);
    return fs.readFileSync(out);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A 320×240 VP9 WebM of solid colours, one after another, written as a recorder writes it while
 * recording (no duration, no cues), e.g. `liveRecording(["red", 0.5], ["blue", 2.5])`.
 */
export function liveRecording(...segments: Array<[colour: string, seconds: number]>): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stash-recording-"));
  const out = path.join(dir, "recording.webm");
  const inputs = segments.flatMap(([colour, seconds]) => ["-f", "lavfi", "-i", `color=c=${colour}:s=320x240:r=10:d=${seconds}`]);
  const concat = `${segments.map((_, i) => `[${i}:v]`).join("")}concat=n=${segments.length}:v=1[v]`;
  try {
    execFileSync("ffmpeg", ["-v", "error", ...inputs, "-filter_complex", concat, "-map", "[v]", "-c:v", "libvpx-vp9", "-deadline", "realtime", "-f", "webm", "-live", "1", "-y", out]);
    return fs.readFileSync(out);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export type AudioFormat = "ogg" | "webm" | "mp3" | "wav" | "m4a" | "aac";

const AUDIO_ENCODERS: Record<AudioFormat, string[]> = {
  ogg: ["-c:a", "libopus", "-f", "ogg"],
  // What MediaRecorder makes of a voice note: Opus in WebM with no video track.
  webm: ["-c:a", "libopus", "-f", "webm"],
  mp3: ["-c:a", "libmp3lame", "-f", "mp3"],
  wav: ["-c:a", "pcm_s16le", "-f", "wav"],
  m4a: ["-c:a", "aac", "-f", "ipod"],
  aac: ["-c:a", "aac", "-f", "adts"],
};

/** A sine tone made by ffmpeg in one audio format. */
export function testAudio(format: AudioFormat, seconds = 1): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stash-tone-"));
  const out = path.join(dir, `tone.${format}`);
  try {
    execFileSync("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", `sine=frequency=440:duration=${seconds}`, ...AUDIO_ENCODERS[format], "-y", out]);
    return fs.readFileSync(out);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A sine tone as Ogg/Opus. */
export function testTone(seconds = 1.5): Buffer {
  return testAudio("ogg", seconds);
}
