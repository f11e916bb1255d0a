import { createRequire } from "node:module";
import type { Config } from "~/services/platform/env.server";
import { toolAvailable, type MediaTools } from "~/services/media/video.server";

const require = createRequire(import.meta.url);

/**
 * The binary an installer package ships for this platform (`{ path }`), or undefined when the
 * package or this platform's optional part is not installed. Loaded at run time, never bundled.
 */
function packagedBinary(packageName: string): string | undefined {
  try {
    const found = (require(packageName) as { path?: unknown }).path;
    return typeof found === "string" ? found : undefined;
  } catch {
    return undefined;
  }
}

/** FFMPEG_PATH / FFPROBE_PATH when set; else the npm package's binary if it runs here; else the name on PATH. */
async function resolveTool(configured: string | undefined, packageName: string, onPath: string): Promise<string> {
  if (configured) return configured;
  const packaged = packagedBinary(packageName);
  // A binary that cannot run here (no exec bit for this user, a foreign libc) falls back to PATH.
  if (packaged && (await toolAvailable(packaged))) return packaged;
  return onPath;
}

const resolved = new Map<string, Promise<MediaTools>>();

/** The ffmpeg and ffprobe this process uses, resolved once per configuration. */
export function mediaTools(config: Pick<Config, "FFMPEG_PATH" | "FFPROBE_PATH">): Promise<MediaTools> {
  const cacheKey = `${config.FFMPEG_PATH ?? ""}\0${config.FFPROBE_PATH ?? ""}`;
  let tools = resolved.get(cacheKey);
  if (!tools) {
    tools = Promise.all([
      resolveTool(config.FFMPEG_PATH, "@ffmpeg-installer/ffmpeg", "ffmpeg"),
      resolveTool(config.FFPROBE_PATH, "@ffprobe-installer/ffprobe", "ffprobe"),
    ]).then(([ffmpegPath, ffprobePath]) => ({ ffmpegPath, ffprobePath }));
    resolved.set(cacheKey, tools);
  }
  return tools;
}
