import sharp from "sharp";

/**
 * A game-like screenshot: sky and ground gradients, a noisy world, HUD text and panels.
 * Deterministic for a given seed, so sizes and savings are comparable between runs.
 */
export async function gameScreenshot(width = 1920, height = 1080, seed = 1, format: "png" | "jpeg" = "png"): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  let state = seed * 2654435761;
  const random = () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 4294967296;
  };
  const horizon = Math.floor(height * (0.45 + random() * 0.1));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const noise = (random() - 0.5) * 18;
      if (y < horizon) {
        const t = y / horizon;
        pixels[i] = 40 + 80 * t + noise;
        pixels[i + 1] = 90 + 90 * t + noise;
        pixels[i + 2] = 170 + 60 * t + noise;
      } else {
        const t = (y - horizon) / (height - horizon);
        const road = Math.abs(x - width / 2) < width * (0.05 + 0.3 * t) ? 1 : 0;
        pixels[i] = (road ? 70 : 60 + 40 * t) + noise * 2;
        pixels[i + 1] = (road ? 70 : 90 + 50 * t) + noise * 2;
        pixels[i + 2] = (road ? 75 : 40 + 20 * t) + noise * 2;
      }
    }
  }
  const hud = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect x="${width - 360}" y="20" width="340" height="90" rx="8" fill="#000" fill-opacity="0.55"/>
    <text x="${width - 340}" y="60" font-family="sans-serif" font-size="28" fill="#f5c542">$ 12,450  ♦ 37</text>
    <text x="${width - 340}" y="95" font-family="sans-serif" font-size="20" fill="#fff">Legion Square · 21:4${seed % 10}</text>
    <rect x="20" y="${height - 140}" width="260" height="120" rx="60" fill="#111" fill-opacity="0.7"/>
    <text x="40" y="${height - 70}" font-family="monospace" font-size="26" fill="#9f9">HP 100  ARM 75</text>
    <text x="${width / 2 - 200}" y="${height - 40}" font-family="sans-serif" font-size="24" fill="#fff">[E] Open trunk   [G] Lock vehicle</text>
  </svg>`);
  const image = sharp(pixels, { raw: { width, height, channels: 3 } }).composite([{ input: hud }]);
  return format === "png" ? image.png().toBuffer() : image.jpeg({ quality: 90 }).toBuffer();
}

/** A phone photo carrying camera EXIF, a GPS position and a rotate-90° orientation tag. */
export function photoWithGps(): Promise<Buffer> {
  return sharp({ create: { width: 400, height: 200, channels: 3, background: { r: 200, g: 60, b: 40 } } })
    .jpeg({ quality: 90 })
    .withMetadata({ orientation: 6 })
    .withExif({
      IFD0: { Make: "PhoneCo", Model: "RP-Cam" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "51/1 30/1 0/1", GPSLongitudeRef: "W", GPSLongitude: "0/1 7/1 0/1" },
    })
    .toBuffer();
}

/** Mean structural similarity of two same-sized images (luma, 8×8 windows). */
export async function ssim(a: Buffer, b: Buffer): Promise<number> {
  const load = (input: Buffer) => sharp(input).greyscale().raw().toBuffer({ resolveWithObject: true });
  const [x, y] = await Promise.all([load(a), load(b)]);
  const { width, height } = x.info;
  const c1 = (0.01 * 255) ** 2;
  const c2 = (0.03 * 255) ** 2;
  let total = 0;
  let windows = 0;
  for (let wy = 0; wy + 8 <= height; wy += 8) {
    for (let wx = 0; wx + 8 <= width; wx += 8) {
      let sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0;
      for (let j = 0; j < 8; j++) {
        for (let i = 0; i < 8; i++) {
          const p = (wy + j) * width + wx + i;
          const u = x.data[p];
          const v = y.data[p];
          sx += u; sy += v; sxx += u * u; syy += v * v; sxy += u * v;
        }
      }
      const n = 64;
      const mx = sx / n, my = sy / n;
      const vx = sxx / n - mx * mx, vy = syy / n - my * my, cov = sxy / n - mx * my;
      total += ((2 * mx * my + c1) * (2 * cov + c2)) / ((mx * mx + my * my + c1) * (vx + vy + c2));
      windows++;
    }
  }
  return total / windows;
}
