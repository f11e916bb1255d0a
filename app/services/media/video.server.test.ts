import { describe, expect, it } from "vitest";
import { canRewrite, demuxerFor, mp4CopyArgs, mp4CopyRates, MP4_COPY_MAX_GROWTH, remuxMuxerFor, wantsMp4Copy } from "~/services/media/video.server";

/** The value after `flag` in an argument list. */
const after = (args: string[], flag: string) => args[args.indexOf(flag) + 1];

describe("containers", () => {
  it("force ffmpeg's demuxer from the stored type, whatever its case, and know no others", () => {
    expect(demuxerFor("video/webm")).toBe("webm");
    expect(demuxerFor("VIDEO/QuickTime")).toBe("mov");
    expect(demuxerFor("audio/x-m4a")).toBe("mp4");
    expect(demuxerFor("image/png")).toBeUndefined();
    expect(demuxerFor("video/webm; codecs=vp9")).toBeUndefined();
  });

  it("remux only what live recorders write without an index", () => {
    expect(remuxMuxerFor("video/webm")).toBe("webm");
    expect(remuxMuxerFor("video/x-matroska")).toBe("matroska");
    expect(remuxMuxerFor("audio/ogg")).toBe("ogg");
    expect(remuxMuxerFor("video/mp4")).toBeUndefined();
    expect(remuxMuxerFor("text/plain")).toBeUndefined();
  });

  it("rewrite a type only when a muxer writes its container back", () => {
    expect(canRewrite("video/mp4")).toBe(true);
    expect(canRewrite("audio/aac")).toBe(true);
    expect(canRewrite("audio/webm")).toBe(true);
    expect(canRewrite("image/gif")).toBe(false);
  });
});

describe("MP4 copies", () => {
  it("are made for videos that do not play everywhere and for animated GIFs", () => {
    for (const type of ["video/webm", "video/quicktime", "video/x-matroska", "VIDEO/X-MSVIDEO", "video/ogg"]) expect(wantsMp4Copy(type, 1000), type).toBe(true);
    expect(wantsMp4Copy("video/mp4", 1000)).toBe(false);
    expect(wantsMp4Copy("image/gif", 400)).toBe(true);
    expect(wantsMp4Copy("image/gif", 0)).toBe(false);
    expect(wantsMp4Copy("image/gif", null)).toBe(false);
    expect(wantsMp4Copy("audio/webm", 1000)).toBe(false);
  });

  it("cap the bitrate at the rates mp4CopyRates derives from the original, audio within 24–96 kbps", () => {
    const source = { mimeType: "video/webm", sizeBytes: 3_000_000, durationMs: 10_000 };
    const args = mp4CopyArgs("/in", "/out.mp4", source);
    expect(after(args, "-f")).toBe("webm");
    expect(after(args, "-b:a")).toBe("96k");
    expect(after(args, "-maxrate")).toBe(`${mp4CopyRates(source).videoKbps}k`);
    expect(MP4_COPY_MAX_GROWTH).toBe(1.5);
    expect(args.slice(-2)).toEqual(["-y", "/out.mp4"]);
    expect(args).toContain("+faststart");
    expect(after(args, "-map_metadata")).toBe("-1");
  });

  it("keep a floor for tiny or very long clips, and count a clip under half a second as half a second", () => {
    const tiny = mp4CopyArgs("/in", "/out", { mimeType: "video/webm", sizeBytes: 1000, durationMs: 600_000 });
    expect([after(tiny, "-b:a"), after(tiny, "-maxrate")]).toEqual(["24k", "30k"]);
    const short = mp4CopyArgs("/in", "/out", { mimeType: "video/webm", sizeBytes: 100_000, durationMs: 400 });
    expect(after(short, "-maxrate")).toBe(after(mp4CopyArgs("/in", "/out", { mimeType: "video/webm", sizeBytes: 100_000, durationMs: 500 }), "-maxrate"));
  });

  it("let ffmpeg probe a type it has no demuxer for", () => {
    const args = mp4CopyArgs("/in.gif", "/out", { mimeType: "image/gif", sizeBytes: 1000, durationMs: 1000 });
    expect(args.indexOf("-i")).toBe(args.indexOf("-nostdin") + 1);
  });
});
