import jpeg from 'jpeg-js';
import { decodeImage, type RgbImage } from '@identity-broker/face';

/**
 * Intermediate camera frames made from still images, so the specimen phone can answer a burst (a head moving
 * towards the asked pose) without a camera. Only for the test app: these are exactly the synthetic frames a
 * real liveness check cannot tell from a moving head without a presentation-attack-detection model.
 */

/** Pixel-wise blend of two images (b resampled to a's size): t = 0 is a, t = 1 is b. */
export function crossFade(a: RgbImage, b: RgbImage, t: number): RgbImage {
  const data = new Uint8Array(a.data.length);
  for (let y = 0; y < a.height; y++) {
    const by = Math.min(b.height - 1, Math.floor((y * b.height) / a.height));
    for (let x = 0; x < a.width; x++) {
      const bx = Math.min(b.width - 1, Math.floor((x * b.width) / a.width));
      const i = (y * a.width + x) * 3;
      const j = (by * b.width + bx) * 3;
      for (let c = 0; c < 3; c++) data[i + c] = Math.round(a.data[i + c] * (1 - t) + b.data[j + c] * t);
    }
  }
  return { width: a.width, height: a.height, data };
}

/** Rotation about the centre by `degrees` counter-clockwise as seen in the image (bilinear, edges clamped). */
export function rotate(image: RgbImage, degrees: number): RgbImage {
  const { width, height } = image;
  const data = new Uint8Array(image.data.length);
  const r = (degrees * Math.PI) / 180;
  const cos = Math.cos(r);
  const sin = Math.sin(r);
  const cx = (width - 1) / 2;
  const cy = (height - 1) / 2;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      // Inverse mapping; image y grows downwards, so counter-clockwise on screen is a negative angle in these axes.
      const dx = x - cx;
      const dy = y - cy;
      const sx = Math.min(width - 1, Math.max(0, cx + dx * cos - dy * sin));
      const sy = Math.min(height - 1, Math.max(0, cy + dx * sin + dy * cos));
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      const x1 = Math.min(width - 1, x0 + 1);
      const y1 = Math.min(height - 1, y0 + 1);
      const fx = sx - x0;
      const fy = sy - y0;
      for (let c = 0; c < 3; c++) {
        const p = (yy: number, xx: number) => image.data[(yy * width + xx) * 3 + c];
        const top = p(y0, x0) * (1 - fx) + p(y0, x1) * fx;
        const bottom = p(y1, x0) * (1 - fx) + p(y1, x1) * fx;
        data[(y * width + x) * 3 + c] = Math.round(top * (1 - fy) + bottom * fy);
      }
    }
  }
  return { width, height, data };
}

/** The image moved right by `dx` pixels (left edge repeated): a different frame of the same pose. */
export function shift(image: RgbImage, dx: number): RgbImage {
  if (dx === 0) return image;
  const { width, height } = image;
  const data = new Uint8Array(image.data.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const sx = Math.min(width - 1, Math.max(0, x - dx));
      data.set(image.data.subarray((y * width + sx) * 3, (y * width + sx) * 3 + 3), (y * width + x) * 3);
    }
  }
  return { width, height, data };
}

/** Separable box blur of radius r run twice (about a Gaussian of sigma r): a shaky capture. */
export function blur(image: RgbImage, r: number): RgbImage {
  const { width, height } = image;
  let data = image.data;
  for (let pass = 0; pass < 4; pass++) {
    const horizontal = pass % 2 === 0;
    const out = new Uint8Array(data.length);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++)
        for (let c = 0; c < 3; c++) {
          let sum = 0;
          for (let d = -r; d <= r; d++) {
            const xx = horizontal ? Math.min(width - 1, Math.max(0, x + d)) : x;
            const yy = horizontal ? y : Math.min(height - 1, Math.max(0, y + d));
            sum += data[(yy * width + xx) * 3 + c];
          }
          out[(y * width + x) * 3 + c] = Math.round(sum / (2 * r + 1));
        }
    data = out;
  }
  return { width, height, data };
}

/** Images side by side on a grey canvas, each scaled by `scale` (nearest neighbour): several faces, or a small one. */
export function compose(images: RgbImage[], scale = 1, canvas = { width: 0, height: 0 }): RgbImage {
  const w = images.reduce((sum, im) => sum + Math.round(im.width * scale), 0);
  const h = Math.max(...images.map((im) => Math.round(im.height * scale)));
  const width = Math.max(w, canvas.width);
  const height = Math.max(h, canvas.height);
  const data = new Uint8Array(width * height * 3).fill(128);
  let left = Math.floor((width - w) / 2);
  const top = Math.floor((height - h) / 2);
  for (const im of images) {
    const iw = Math.round(im.width * scale);
    const ih = Math.round(im.height * scale);
    for (let y = 0; y < ih; y++)
      for (let x = 0; x < iw; x++) {
        const s = (Math.min(im.height - 1, Math.floor(y / scale)) * im.width + Math.min(im.width - 1, Math.floor(x / scale))) * 3;
        data.set(im.data.subarray(s, s + 3), ((top + y) * width + left + x) * 3);
      }
    left += iw;
  }
  return { width, height, data };
}

export function encodeJpeg(rgb: RgbImage, quality = 92): Uint8Array {
  const rgba = Buffer.alloc(rgb.width * rgb.height * 4);
  for (let i = 0, j = 0; i < rgb.data.length; i += 3, j += 4) {
    rgba[j] = rgb.data[i];
    rgba[j + 1] = rgb.data[i + 1];
    rgba[j + 2] = rgb.data[i + 2];
    rgba[j + 3] = 255;
  }
  return new Uint8Array(jpeg.encode({ width: rgb.width, height: rgb.height, data: rgba }, quality).data);
}

export { decodeImage };
