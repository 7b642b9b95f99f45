import type { RgbImage } from '../types.js';
import { clamp } from '../image/pad-image.js';

const f32 = Math.fround;

/** A pixel region of the frame in whole pixels, as face-api's `Box.clipAtImageBorders` leaves it (floored, inside). */
export interface PixelRegion {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The square the SSD detector and the nets after it look at, without making it. For a tight crop, that square is the
 * image padded by `offsetX`/`offsetY` repeated edge pixels on every side (padImage), then by zeros below or to the
 * right up to a square (face-api's `padToSquare` for SSD). A 1000x750 frame padded by half its size is a 2000x2000
 * square: 48 MB as float32 in the face thread's WASM heap, of which SSD reads only a 512x512 resize, and the landmark
 * and descriptor nets only the face's box. So each reader gets just its part, computed here from the image:
 * - `resized(512)`: what `tf.image.resizeBilinear(square, [512, 512])` makes of it (corners not aligned, no half-pixel
 *   centres, face-api's call), in float32 arithmetic step by step as the kernel does it;
 * - `region(box)`: the pixels `tf.slice` would take out of it (face-api's `extractFaceTensors`).
 * The numbers are the same as the square's (detector-frame.spec.ts compares them with tfjs's own on a padded frame),
 * so boxes, landmarks and descriptors are those the calibration was made with.
 */
export class DetectorFrame {
  /** The square's side. */
  readonly side: number;
  private readonly paddedWidth: number;
  private readonly paddedHeight: number;

  constructor(
    private readonly image: RgbImage,
    /** Where the image lies in the square: the padding's width on the left and its height above. */
    readonly offsetX = 0,
    readonly offsetY = 0,
  ) {
    this.paddedWidth = image.width + 2 * offsetX;
    this.paddedHeight = image.height + 2 * offsetY;
    this.side = Math.max(this.paddedWidth, this.paddedHeight);
  }

  /** The frame of `image` padded by `fraction` of its width and height on every side, rounded as padImage rounds. */
  static padded(image: RgbImage, fraction: number): DetectorFrame {
    return fraction > 0 ? new DetectorFrame(image, Math.round(image.width * fraction), Math.round(image.height * fraction)) : new DetectorFrame(image);
  }

  /** The square resized to `size` x `size` by bilinear interpolation, as float32 RGB, row by row. */
  resized(size: number): Float32Array {
    const ratio = f32(this.side / size);
    const columns = samples(size, ratio, this.side);
    const rows = samples(size, ratio, this.side);
    const out = new Float32Array(size * size * 3);
    const topRow = new Float32Array(this.side * 3);
    const bottomRow = new Float32Array(this.side * 3);
    for (let r = 0; r < size; r++) {
      this.readRow(rows.low[r], topRow);
      this.readRow(rows.high[r], bottomRow);
      const rowFraction = rows.fraction[r];
      for (let c = 0; c < size; c++) {
        const [left, right, columnFraction] = [columns.low[c] * 3, columns.high[c] * 3, columns.fraction[c]];
        for (let k = 0; k < 3; k++) {
          const top = f32(topRow[left + k] + f32(f32(topRow[right + k] - topRow[left + k]) * columnFraction));
          const bottom = f32(bottomRow[left + k] + f32(f32(bottomRow[right + k] - bottomRow[left + k]) * columnFraction));
          out[(r * size + c) * 3 + k] = f32(top + f32(f32(bottom - top) * rowFraction));
        }
      }
    }
    return out;
  }

  /** The square's pixels in `region` (which lies inside it), as float32 RGB. */
  region({ x, y, width, height }: PixelRegion): Float32Array {
    if (x < 0 || y < 0 || width <= 0 || height <= 0 || x + width > this.side || y + height > this.side) {
      throw new RangeError(`region ${width}x${height}+${x}+${y} is not inside the ${this.side}-pixel square`);
    }
    const out = new Float32Array(width * height * 3);
    const row = new Float32Array(this.side * 3);
    for (let j = 0; j < height; j++) {
      this.readRow(y + j, row);
      out.set(row.subarray(x * 3, (x + width) * 3), j * width * 3);
    }
    return out;
  }

  /** One row of the square: the image's row (edges repeated into the padding), zeros past the padded image. */
  private readRow(y: number, into: Float32Array): void {
    into.fill(0);
    if (y >= this.paddedHeight) return;
    const { width, height, data } = this.image;
    const from = clamp(y - this.offsetY, height - 1) * width * 3;
    for (let x = 0; x < this.paddedWidth; x++) {
      const at = from + clamp(x - this.offsetX, width - 1) * 3;
      into[x * 3] = data[at];
      into[x * 3 + 1] = data[at + 1];
      into[x * 3 + 2] = data[at + 2];
    }
  }
}

/** Where each output pixel samples the input along one axis: the two neighbours and the weight of the far one. */
function samples(size: number, ratio: number, extent: number) {
  const low = new Int32Array(size);
  const high = new Int32Array(size);
  const fraction = new Float32Array(size);
  for (let i = 0; i < size; i++) {
    const at = f32(ratio * i);
    low[i] = Math.floor(at);
    high[i] = Math.min(Math.ceil(at), extent - 1);
    fraction[i] = f32(at - low[i]);
  }
  return { low, high, fraction };
}
