import { encodeImage } from "../app/services/media/images.server.ts";
import { UPLOAD_WEBP } from "../app/services/media/process-upload.server.ts";
import { gameScreenshot, ssim } from "../tests/helpers/images.ts";
import { median, round } from "./lib.ts";

export interface WebpResult {
  images: number;
  png: { inputMb: number; webpMb: number; savingPercent: number; meanSsim: number };
  jpeg: { inputMb: number; webpMb: number; savingPercent: number; meanSsim: number };
  encodeMsP50: number;
  /** CPU (all threads) of one 1080p PNG's conversion, median: the request-path cost the budget caps at 200 ms. */
  pngCpuMsP50: number;
}

const LIMITS = { maxPixels: 50_000_000, maxFrames: 500 };

/**
 * The upload conversion (UPLOAD_WEBP, as process-upload does) on synthetic 1080p game screenshots,
 * as PNG and as JPEG q90 (what screenshot tools send). Returns the byte saving and the mean SSIM.
 */
export async function benchWebp(count: number): Promise<{ result: WebpResult; pngFiles: Buffer[] }> {
  const totals = { png: { in: 0, out: 0, ssim: 0 }, jpeg: { in: 0, out: 0, ssim: 0 } };
  const encodeTimes: number[] = [];
  const pngCpu: number[] = [];
  const pngFiles: Buffer[] = [];
  for (let seed = 1; seed <= count; seed++) {
    for (const format of ["png", "jpeg"] as const) {
      const input = await gameScreenshot(1920, 1080, seed, format);
      if (format === "png") pngFiles.push(input);
      const started = performance.now();
      const cpuBefore = process.cpuUsage();
      const webp = await encodeImage(input, UPLOAD_WEBP, LIMITS);
      const cpu = process.cpuUsage(cpuBefore);
      encodeTimes.push(performance.now() - started);
      if (format === "png") pngCpu.push((cpu.user + cpu.system) / 1000);
      totals[format].in += input.length;
      totals[format].out += webp.data.length;
      totals[format].ssim += await ssim(input, webp.data);
    }
  }
  const summary = (t: { in: number; out: number; ssim: number }) => ({
    inputMb: round(t.in / 1024 / 1024),
    webpMb: round(t.out / 1024 / 1024),
    savingPercent: round((1 - t.out / t.in) * 100, 1),
    meanSsim: round(t.ssim / count, 4),
  });
  encodeTimes.sort((a, b) => a - b);
  return {
    result: { images: count, png: summary(totals.png), jpeg: summary(totals.jpeg), encodeMsP50: round(encodeTimes[Math.floor(encodeTimes.length / 2)], 1), pngCpuMsP50: round(median(pngCpu), 1) },
    pngFiles,
  };
}
