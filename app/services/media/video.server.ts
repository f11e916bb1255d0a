import { execFile } from "node:child_process";
import type { RawFrame } from "~/services/media/images.server";

const TIMEOUT_MS = 20_000;

/** ffmpeg's demuxer per stored type: input format is forced, never guessed from the bytes. */
const DEMUXERS: Record<string, string> = {
  "video/mp4": "mp4",
  "video/webm": "webm",
  "video/quicktime": "mov",
  "video/x-matroska": "matroska",
  "video/x-msvideo": "avi",
  "video/ogg": "ogg",
  "audio/mpeg": "mp3",
  "audio/ogg": "ogg",
  "audio/opus": "ogg",
  "audio/wav": "wav",
  "audio/x-wav": "wav",
  "audio/wave": "wav",
  "audio/webm": "webm",
  "audio/mp4": "mp4",
  "audio/x-m4a": "mp4",
  "audio/aac": "aac",
  "audio/flac": "flac",
  "audio/x-flac": "flac",
};

export function demuxerFor(mimeType: string): string | undefined {
  return DEMUXERS[mimeType.toLowerCase()];
}

export interface MediaTools {
  ffmpegPath: string;
  ffprobePath: string;
}

export interface ProbeResult {
  durationMs: number | null;
  width: number | null;
  height: number | null;
  hasVideo: boolean;
  /** Stream kinds in file order, e.g. `["video", "audio"]`. */
  streams: string[];
  /** Names of the container's and streams' tags that can tell who, where or when (GPS, artist, title…). */
  personalTags: string[];
}

/** Tags muxers write about the file itself; anything else (location, artist, comment, dates…) is the uploader's. */
const TECHNICAL_TAGS = new Set(["major_brand", "minor_version", "compatible_brands", "encoder", "handler_name", "vendor_id", "language", "duration"]);

function personalTags(...tagSets: Array<Record<string, string> | undefined>): string[] {
  const names = tagSets.flatMap((tags) => Object.keys(tags ?? {})).map((name) => name.toLowerCase());
  return [...new Set(names.filter((name) => !TECHNICAL_TAGS.has(name)))];
}

function run(binary: string, args: string[], maxBuffer = 64 * 1024 * 1024): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    execFile(
      binary,
      args,
      { encoding: "buffer", timeout: TIMEOUT_MS, killSignal: "SIGKILL", maxBuffer, windowsHide: true },
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    );
  });
}

const available = new Map<string, Promise<boolean>>();

/** Whether a binary runs at all; asked once per path and remembered. */
export function toolAvailable(binary: string): Promise<boolean> {
  let known = available.get(binary);
  if (!known) {
    known = run(binary, ["-version"], 1024 * 1024).then(
      () => true,
      () => false,
    );
    available.set(binary, known);
  }
  return known;
}

// Only local files may be opened: a crafted playlist or reference cannot make ffmpeg fetch URLs.
const INPUT_GUARD = ["-protocol_whitelist", "file"];

export async function probeMedia(tools: MediaTools, file: string, mimeType: string): Promise<ProbeResult | null> {
  const demuxer = demuxerFor(mimeType);
  if (!demuxer || !(await toolAvailable(tools.ffprobePath))) return null;
  const out = await run(tools.ffprobePath, [
    "-v", "error",
    ...INPUT_GUARD,
    "-f", demuxer,
    "-show_entries", "format=duration:format_tags:stream=codec_type,width,height,duration:stream_tags",
    "-of", "json",
    file,
  ]);
  const parsed = JSON.parse(out.toString("utf8")) as {
    format?: { duration?: string; tags?: Record<string, string> };
    streams?: Array<{ codec_type?: string; width?: number; height?: number; duration?: string; tags?: Record<string, string> }>;
  };
  const video = parsed.streams?.find((s) => s.codec_type === "video" && s.width && s.height);
  const seconds = Number(parsed.format?.duration ?? video?.duration ?? NaN);
  return {
    durationMs: Number.isFinite(seconds) ? Math.round(seconds * 1000) : null,
    width: video?.width ?? null,
    height: video?.height ?? null,
    hasVideo: Boolean(video),
    streams: (parsed.streams ?? []).map((s) => s.codec_type ?? "unknown"),
    personalTags: personalTags(parsed.format?.tags, ...(parsed.streams ?? []).map((s) => s.tags)),
  };
}

/**
 * One frame's pixels, from a second in (or a third of the way into shorter clips; a second in when
 * the duration is not known yet, and the first frame if the clip proves shorter). ffmpeg hands the
 * frame over as PPM — a short header and the pixels — rather than PNG, which it would compress
 * only for sharp to decompress. `pixels` (the probe's width × height) bounds what it may hand over.
 */
export async function extractPosterFrame(tools: MediaTools, file: string, mimeType: string, durationMs: number | null, pixels: number): Promise<RawFrame | null> {
  const demuxer = demuxerFor(mimeType);
  if (!demuxer || !(await toolAvailable(tools.ffmpegPath))) return null;
  const at = durationMs === null ? 1 : Math.min(1, durationMs / 3000);
  const frameAt = (seconds: number) =>
    run(tools.ffmpegPath, [
      "-v", "error",
      "-nostdin",
      ...INPUT_GUARD,
      "-f", demuxer,
      "-ss", seconds.toFixed(3),
      "-i", file,
      "-frames:v", "1",
      "-an",
      "-f", "image2pipe",
      "-c:v", "ppm",
      "-pix_fmt", "rgb24",
      "pipe:1",
    ], pixels * 3 + 64);
  let ppm = await frameAt(at);
  if (ppm.length === 0 && at > 0) ppm = await frameAt(0);
  return parsePpm(ppm);
}

/** A binary PPM (P6, 8 bits per sample) as raw RGB; null for anything else. */
function parsePpm(bytes: Buffer): RawFrame | null {
  const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(bytes.subarray(0, 40).toString("latin1"));
  if (!header) return null;
  const width = Number(header[1]);
  const height = Number(header[2]);
  const start = header[0].length;
  if (width === 0 || height === 0 || bytes.length - start !== width * height * 3) return null;
  return { pixels: bytes.subarray(start), width, height };
}

/** A 3 s, 320 px, 10 fps animated WebP from the clip's start, for the gallery's hover preview. */
export async function makeAnimatedPreview(tools: MediaTools, file: string, mimeType: string): Promise<Buffer | null> {
  const demuxer = demuxerFor(mimeType);
  if (!demuxer || !(await toolAvailable(tools.ffmpegPath))) return null;
  const webp = await run(tools.ffmpegPath, [
    "-v", "error",
    "-nostdin",
    ...INPUT_GUARD,
    "-f", demuxer,
    "-t", "3",
    "-i", file,
    "-vf", "fps=10,scale=320:-2",
    "-an",
    "-loop", "0",
    "-c:v", "libwebp_anim",
    "-quality", "60",
    "-f", "webp",
    "pipe:1",
  ]);
  return webp.length > 0 ? webp : null;
}

/** An audio file's waveform as a 640×120 PNG (the brand's amber on transparent), for its card. */
export async function makeWaveform(tools: MediaTools, file: string, mimeType: string): Promise<Buffer | null> {
  const demuxer = demuxerFor(mimeType);
  if (!demuxer || !(await toolAvailable(tools.ffmpegPath))) return null;
  const png = await run(tools.ffmpegPath, [
    "-v", "error",
    "-nostdin",
    ...INPUT_GUARD,
    "-f", demuxer,
    "-i", file,
    "-filter_complex", "aformat=channel_layouts=mono,showwavespic=s=640x120:colors=#f5a524",
    "-frames:v", "1",
    "-f", "image2pipe",
    "-c:v", "png",
    "pipe:1",
  ]);
  return png.length > 0 ? png : null;
}

/**
 * Containers a live recorder writes without a duration or an index (Chromium's MediaRecorder
 * streams WebM clusters as it records): such uploads are remuxed to get both.
 */
const LIVE_RECORDER_CONTAINERS = new Set(["webm", "matroska", "ogg"]);

export function remuxMuxerFor(mimeType: string): string | undefined {
  const demuxer = demuxerFor(mimeType);
  return demuxer && LIVE_RECORDER_CONTAINERS.has(demuxer) ? demuxer : undefined;
}

/** The muxer that writes a stored type back in its own container. */
const MUXERS: Record<string, string> = {
  mp4: "mp4",
  mov: "mov",
  webm: "webm",
  matroska: "matroska",
  ogg: "ogg",
  avi: "avi",
  mp3: "mp3",
  wav: "wav",
  aac: "adts",
  flac: "flac",
};

export function canRewrite(mimeType: string): boolean {
  const demuxer = demuxerFor(mimeType);
  return Boolean(demuxer && MUXERS[demuxer]);
}

/**
 * Copies every stream into a fresh container of the same kind (`-c copy`, nothing decoded or
 * re-encoded), which writes the duration and the cues a player needs to seek; with
 * `stripMetadata`, without the container's and streams' tags and chapters (rotation is side data
 * and stays). MP4 and MOV get their index first, so players start before the whole file arrives.
 * `maxBytes` caps the output file.
 */
export async function remuxMedia(
  tools: MediaTools,
  input: string,
  output: string,
  mimeType: string,
  maxBytes: number,
  options: { stripMetadata?: boolean } = {},
): Promise<boolean> {
  const demuxer = demuxerFor(mimeType);
  const muxer = demuxer ? MUXERS[demuxer] : undefined;
  if (!demuxer || !muxer || !(await toolAvailable(tools.ffmpegPath))) return false;
  await run(tools.ffmpegPath, [
    "-v", "error",
    "-nostdin",
    ...INPUT_GUARD,
    "-f", demuxer,
    "-i", input,
    "-map", "0",
    "-c", "copy",
    ...(options.stripMetadata ? ["-map_metadata", "-1", "-map_chapters", "-1"] : []),
    ...(muxer === "mp4" || muxer === "mov" ? ["-movflags", "+faststart"] : []),
    "-fs", String(maxBytes),
    "-f", muxer,
    "-y",
    output,
  ], 1024 * 1024);
  return true;
}

/** A copy may not grow past this multiple of the original (uncapped H.264 of a 3.9 MB WebM reached 15 MB). */
export const MP4_COPY_MAX_GROWTH = 1.5;
/** What a copy's rates are derived for: under the cap with room for x264 overshooting on a clip of a few seconds. */
const MP4_COPY_TARGET_GROWTH = 1.15;
/** The MP4 index and headers of a short clip, taken off the budget before it is shared out. */
const MP4_CONTAINER_BYTES = 4 * 1024;
/** Measured on 2 vCPU for a 60 s 720p clip: ultrafast 14 s, veryfast 35 s; veryfast keeps quality at the capped rate. */
const MP4_PRESET = "veryfast";
const MP4_TIMEOUT_MS = 10 * 60_000;

export interface Mp4CopySource {
  mimeType: string;
  sizeBytes: number;
  durationMs: number;
}

export interface Mp4CopyRates {
  videoKbps: number;
  audioKbps: number;
}

/**
 * The bitrates of an MP4 copy, from the original's size and duration: its average rate times the target
 * growth, less the container, shared between video and audio (12 %, 24–96 kbit/s). `scale` lowers the
 * whole budget for another try when a copy still came out past the cap.
 */
export function mp4CopyRates(source: Mp4CopySource, scale = 1): Mp4CopyRates {
  const seconds = Math.max(source.durationMs / 1000, 0.5);
  const budgetKbps = (((source.sizeBytes * MP4_COPY_TARGET_GROWTH - MP4_CONTAINER_BYTES) * 8) / 1000 / seconds) * scale;
  const audioKbps = Math.min(96, Math.max(24, Math.round(budgetKbps * 0.12)));
  return { videoKbps: Math.max(Math.floor(budgetKbps - audioKbps), 30), audioKbps };
}

/** ffmpeg's own words for a failed encode (its last line on stderr), for the log and the file's page. */
export class EncodeError extends Error {
  constructor(readonly problem: string) {
    super(`ffmpeg could not make the copy: ${problem}`);
    this.name = "EncodeError";
  }
}

/**
 * An H.264/AAC MP4 copy that plays on iPhones and in Discord: `-movflags +faststart` puts the index
 * first, even dimensions and yuv420p keep every decoder happy, and the video's rate is held to what
 * mp4CopyRates derives from the original. ffmpeg uses every core, so the job runs one encode at a time.
 */
export async function encodeMp4Copy(tools: MediaTools, input: string, output: string, source: Mp4CopySource, rates: Mp4CopyRates): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    execFile(tools.ffmpegPath, mp4CopyArgs(input, output, source, rates), { timeout: MP4_TIMEOUT_MS, killSignal: "SIGKILL", maxBuffer: 1024 * 1024, windowsHide: true }, (error, _stdout, stderr) => {
      if (!error) return resolve();
      // ffmpeg names its input by path; the file's page says "the video" instead of a server path.
      const said = String(stderr).trim().split("\n").at(-1)?.replaceAll(input, "the video");
      reject(new EncodeError(error.killed ? `stopped after ${MP4_TIMEOUT_MS / 60_000} minutes` : said || error.message));
    });
  });
}

/** The ffmpeg arguments of an MP4 copy (exported so the bench can time the same command run alone). */
export function mp4CopyArgs(input: string, output: string, source: Mp4CopySource, rates: Mp4CopyRates = mp4CopyRates(source)): string[] {
  const demuxer = demuxerFor(source.mimeType);
  const { videoKbps, audioKbps } = rates;
  return [
    "-v", "error",
    "-nostdin",
    ...(demuxer ? ["-f", demuxer] : []),
    "-i", input,
    "-map", "0:v:0",
    "-map", "0:a:0?",
    "-map_metadata", "-1",
    // MediaRecorder's WebM keeps millisecond timestamps: without this the MP4 muxer fills every missing
    // millisecond with a duplicate frame (1000 fps, three times the original's bytes for a 3 s clip).
    "-vsync", "vfr",
    "-c:v", "libx264",
    "-preset", MP4_PRESET,
    // Quality first (an animated GIF or a still scene needs a fraction of the budget), never past the rate
    // the budget allows, over any second (a larger buffer let a short clip's opening burst take the cap).
    "-crf", "26",
    "-maxrate", `${videoKbps}k`,
    "-bufsize", `${videoKbps}k`,
    "-vf", "scale=trunc(iw/2)*2:trunc(ih/2)*2",
    "-pix_fmt", "yuv420p",
    "-c:a", "aac",
    "-b:a", `${audioKbps}k`,
    "-movflags", "+faststart",
    "-f", "mp4",
    "-y",
    output,
  ];
}

/**
 * Videos whose original does not play everywhere (WebM, Matroska, QuickTime, AVI, Ogg) get an MP4
 * copy, and so do animated GIFs (a GIF as H.264 is a fraction of its bytes).
 */
export function wantsMp4Copy(mimeType: string, durationMs: number | null): boolean {
  const type = mimeType.toLowerCase();
  if (type === "image/gif") return (durationMs ?? 0) > 0;
  return type.startsWith("video/") && type !== "video/mp4";
}
