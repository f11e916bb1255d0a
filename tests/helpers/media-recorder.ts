import type { Browser } from "playwright-core";

export interface RecordedClip {
  bytes: Buffer;
  /** What MediaRecorder says it produced, e.g. `video/webm;codecs=vp9,opus`. */
  mimeType: string;
}

/**
 * Records a clip the way LB Phone's camera and voice notes do: Chromium's MediaRecorder over a
 * canvas stream and/or a Web Audio tone. Such WebM carries no duration and no cues.
 */
export async function recordInChromium(browser: Browser, options: { kind: "video" | "audio"; seconds: number; mimeType: string }): Promise<RecordedClip> {
  const page = await browser.newPage();
  try {
    const result = await page.evaluate(async ({ kind, seconds, mimeType }) => {
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
          g.fillStyle = `hsl(${(frame * 9) % 360} 70% 50%)`;
          g.fillRect(0, 0, 320, 240);
          g.fillStyle = "#fff";
          g.font = "48px sans-serif";
          g.fillText(String(frame), 120, 140);
        }, 1000 / 30);
        tracks.push(...canvas.captureStream(30).getVideoTracks());
      }
      const recorder = new MediaRecorder(new MediaStream(tracks), { mimeType });
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
