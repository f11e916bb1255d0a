import type { Browser } from "playwright-core";

export interface RecordedClip {
  bytes: Buffer;
  /** What MediaRecorder says it produced, e.g. `video/webm;codecs=vp9,opus`. */
  mimeType: string;
}

export interface RecordOptions {
  kind: "video" | "audio";
  seconds: number;
  mimeType: string;
  /** MediaRecorder's videoBitsPerSecond (LB Phone records at about 400 kbit/s); the browser's default when absent. */
  videoBitsPerSecond?: number;
  /**
   * `flat`: a solid colour with a frame counter. `camera`: a moving gradient with grain and a counter, as a
   * phone camera's picture is, so the encoder spends the bitrate it is given.
   */
  scene?: "flat" | "camera";
}

/**
 * Records a clip the way LB Phone's camera and voice notes do: Chromium's MediaRecorder over a
 * canvas stream and/or a Web Audio tone. Such WebM carries no duration and no cues.
 */
export async function recordInChromium(browser: Browser, options: RecordOptions): Promise<RecordedClip> {
  const page = await browser.newPage();
  try {
    const result = await page.evaluate(async ({ kind, seconds, mimeType, videoBitsPerSecond, scene }) => {
      const tracks: MediaStreamTrack[] = [];
      const audio = new AudioContext();
      await audio.resume();
      const tone = audio.createOscillator();
      const sink = audio.createMediaStreamDestination();
      tone.connect(sink);
      tone.start();
      tracks.push(...sink.stream.getAudioTracks());
      let frame = 0;
      let timer: ReturnType<typeof setInterval> | undefined;
      if (kind === "video") {
        const canvas = document.createElement("canvas");
        canvas.width = 320;
        canvas.height = 240;
        const g = canvas.getContext("2d")!;
        timer = setInterval(() => {
          frame++;
          if (scene === "camera") {
            const sky = g.createLinearGradient(0, 0, 320, 240);
            sky.addColorStop(0, `hsl(${(frame * 3) % 360} 60% 55%)`);
            sky.addColorStop(1, `hsl(${(frame * 3 + 140) % 360} 50% 30%)`);
            g.fillStyle = sky;
            g.fillRect(0, 0, 320, 240);
            // Sensor grain: a few hundred small specks that move every frame.
            for (let i = 0; i < 600; i++) {
              g.fillStyle = `rgba(${(i * 37 + frame * 11) % 255}, ${(i * 91) % 255}, ${(i * 53 + frame) % 255}, 0.5)`;
              g.fillRect((i * 97 + frame * 13) % 320, (i * 61 + frame * 7) % 240, 3, 3);
            }
          } else {
            g.fillStyle = `hsl(${(frame * 9) % 360} 70% 50%)`;
            g.fillRect(0, 0, 320, 240);
          }
          g.fillStyle = "#fff";
          g.font = "48px sans-serif";
          g.fillText(String(frame), 120, 140);
        }, 1000 / 30);
        tracks.push(...canvas.captureStream(30).getVideoTracks());
      }
      const recorder = new MediaRecorder(new MediaStream(tracks), { mimeType, ...(videoBitsPerSecond ? { videoBitsPerSecond } : {}) });
      const chunks: Blob[] = [];
      recorder.ondataavailable = (event) => chunks.push(event.data);
      const stopped = new Promise((resolve) => (recorder.onstop = resolve));
      // A timeslice, as phone recorders use: the file is a stream of clusters with no duration.
      recorder.start(250);
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
      recorder.stop();
      await stopped;
      clearInterval(timer);
      tone.stop();
      await audio.close();
      const buffer = await new Blob(chunks).arrayBuffer();
      let binary = "";
      const view = new Uint8Array(buffer);
      for (let i = 0; i < view.length; i += 0x8000) binary += String.fromCharCode(...view.subarray(i, i + 0x8000));
      return { base64: btoa(binary), mimeType: recorder.mimeType };
    }, options);
    return { bytes: Buffer.from(result.base64, "base64"), mimeType: result.mimeType };
  } finally {
    await page.close();
  }
}
