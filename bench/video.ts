import { execFile, execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import pino from "pino";
import { DiskBlobStore } from "../storage/disk.ts";
import { loadConfig } from "../app/services/platform/env.server.ts";
import { processUploadedMedia } from "../app/services/media/process-upload.server.ts";
import { mediaTools } from "../app/services/media/tools.server.ts";
import { encodeMp4Copy, mp4CopyArgs, mp4CopyRates } from "../app/services/media/video.server.ts";
import { median, round } from "./lib.ts";

export interface VideoResult {
  clip: { seconds: number; size: string; mb: number };
  remux: { referenceCopyMs: number; uploadProcessingMs: number; addedMs: number };
  mp4: { referenceMs: number[]; serviceMs: number[]; ratio: number; copyMb: number; growth: number };
}

const time = async (work: () => Promise<unknown>) => {
  const started = performance.now();
  await work();
  return performance.now() - started;
};

const run = (binary: string, args: string[]) =>
  new Promise<void>((resolve, reject) => execFile(binary, args, { maxBuffer: 1024 * 1024 }, (error) => (error ? reject(error) : resolve())));

/**
 * A 60 s 720p clip as LB Phone records it (VP9 + Opus WebM at ~400 kbit/s, written live: no duration,
 * no cues). Measures (1) what upload processing (remux for a duration, poster, thumbnail,
 * placeholder) adds over `ffmpeg -c copy` alone, and (2) the MP4 copy as the job makes it
 * against the same ffmpeg command run alone, rounds interleaved.
 */
export async function benchVideo(workDir: string, rounds = 2): Promise<VideoResult> {
  const dir = path.join(workDir, "video");
  fs.mkdirSync(dir, { recursive: true });
  const clip = path.join(dir, "clip.webm");
  execFileSync("ffmpeg", [
    "-v", "error",
    "-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30",
    "-f", "lavfi", "-i", "sine=frequency=300:sample_rate=48000",
    "-t", "60",
    "-c:v", "libvpx-vp9", "-b:v", "400k", "-deadline", "realtime", "-cpu-used", "8",
    "-c:a", "libopus", "-b:a", "48k",
    "-f", "webm", "-live", "1",
    "-y", clip,
  ]);
  const bytes = fs.readFileSync(clip);
  const config = loadConfig({ DATA_DIR: dir });
  const tools = await mediaTools(config);
  const blobs = new DiskBlobStore(path.join(dir, "files"));

  const referenceCopyMs = await time(() => run(tools.ffmpegPath, ["-v", "error", "-f", "webm", "-i", clip, "-c", "copy", "-f", "webm", "-y", path.join(dir, "copy.webm")]));
  const put = await blobs.put("bench/clip.webm", Readable.from([bytes]));
  const uploadProcessingMs = await time(() =>
    processUploadedMedia(
      { blobs, config, logger: pino({ level: "silent" }) },
      { storageKey: "bench/clip.webm", filename: "clip.webm", mimeType: "video/webm", size: put.size, sha256: put.sha256 },
      { stripMetadata: true, convertToWebp: true },
    ),
  );

  const source = { mimeType: "video/webm", sizeBytes: bytes.length, durationMs: 60_000 };
  const referenceMs: number[] = [];
  const serviceMs: number[] = [];
  for (let i = 0; i < rounds; i++) {
    referenceMs.push(await time(() => run(tools.ffmpegPath, mp4CopyArgs(clip, path.join(dir, "reference.mp4"), source))));
    serviceMs.push(await time(() => encodeMp4Copy(tools, clip, path.join(dir, "copy.mp4"), source, mp4CopyRates(source))));
  }
  const copyBytes = fs.statSync(path.join(dir, "copy.mp4")).size;
  return {
    clip: { seconds: 60, size: "1280x720", mb: round(bytes.length / 1024 / 1024) },
    remux: { referenceCopyMs: round(referenceCopyMs, 0), uploadProcessingMs: round(uploadProcessingMs, 0), addedMs: round(uploadProcessingMs - referenceCopyMs, 0) },
    mp4: {
      referenceMs: referenceMs.map((n) => round(n, 0)),
      serviceMs: serviceMs.map((n) => round(n, 0)),
      ratio: round(median(serviceMs) / median(referenceMs)),
      copyMb: round(copyBytes / 1024 / 1024),
      growth: round(copyBytes / bytes.length),
    },
  };
}
