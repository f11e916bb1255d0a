import { describe, expect, it } from "vitest";
import { deviceName } from "~/lib/device-name";

describe("deviceName", () => {
  it("names the browser and system an owner recognises", () => {
    expect(deviceName("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36")).toBe("Chrome on Windows");
    expect(deviceName("Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36 Edg/124.0")).toBe("Edge on Windows");
    expect(deviceName("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1")).toBe("Safari on iPhone");
    expect(deviceName("Mozilla/5.0 (Macintosh; Intel Mac OS X 14.4; rv:125.0) Gecko/20100101 Firefox/125.0")).toBe("Firefox on macOS");
    expect(deviceName("Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36 OPR/80")).toBe("Opera on Android");
    expect(deviceName("Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0 Mobile/15E148 Safari/604.1")).toBe("Chrome on iPad");
  });

  it("says what it can for tools and strangers", () => {
    expect(deviceName("curl/8.5.0")).toBe("curl");
    expect(deviceName("SomeBot/1.0 (X11; Linux x86_64)")).toBe("A browser on Linux");
    expect(deviceName("")).toBe("Unknown device");
    expect(deviceName(null)).toBe("Unknown device");
  });
});
