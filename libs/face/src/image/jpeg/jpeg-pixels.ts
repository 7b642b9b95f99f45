import type { RgbImage } from '../../types.js';
import { blockOffset, type JpegComponent, type JpegFrame } from './jpeg-frame.js';
import { inverseDctBlock, type BlockSize } from './scaled-idct.js';

interface Plane {
  samples: Uint8ClampedArray;
  /** Samples per block across and down. */
  nx: BlockSize;
  ny: BlockSize;
  stride: number;
}

/**
 * Each component's samples, blocks whole (the picture's last row and column of blocks may overhang). At a reduced
 * scale a subsampled component keeps more samples per block, up to 8, so that it reaches the output's resolution
 * as libjpeg's scaled decoding does: at 1/2, a 4:2:0 chroma block gives 8x8 samples where luma gives 4x4, and
 * every output pixel's colour is the mean over its own square, not over one twice its size.
 */
export class ComponentPlanes {
  readonly planes: Plane[];
  private readonly work = new Float64Array(128);

  constructor(
    private readonly frame: JpegFrame,
    /** Output samples per luma (largest-sampled) block side. */
    readonly n: BlockSize,
  ) {
    this.planes = frame.components.map((c) => {
      const nx = samplesPerBlock(n, frame.hMax / c.h);
      const ny = samplesPerBlock(n, frame.vMax / c.v);
      return { samples: new Uint8ClampedArray(c.blocksPerLine * nx * c.blocksPerColumn * ny), nx, ny, stride: c.blocksPerLine * nx };
    });
  }

  /** The blocks of MCU row `mcuRow` (or block row, for a scan of the only component), from the stores to the planes. */
  addMcuRow(mcuRow: number): void {
    this.frame.components.forEach((c, i) => {
      for (let row = mcuRow * c.v; row < Math.min((mcuRow + 1) * c.v, c.blocksPerColumn); row++) this.addBlockRow(c, i, row);
    });
  }

  /** Every block, once all scans are read (progressive or multi-scan images). */
  addAll(): void {
    this.frame.components.forEach((c, i) => {
      for (let row = 0; row < c.blocksPerColumn; row++) this.addBlockRow(c, i, row);
    });
  }

  private addBlockRow(c: JpegComponent, index: number, row: number): void {
    const { samples, nx, ny, stride } = this.planes[index];
    for (let column = 0; column < c.blocksPerLine; column++) {
      inverseDctBlock(c.coefficients, blockOffset(c, row, column), c.quantization!, nx, ny, samples, row * ny * stride + column * nx, stride, this.work);
    }
  }
}

/** n times the subsampling ratio when that is a block size (1-8, capped at 8), else n (the component is then replicated). */
function samplesPerBlock(n: BlockSize, ratio: number): BlockSize {
  const wanted = n * ratio;
  if (wanted >= 8 && Number.isInteger(Math.log2(wanted))) return 8;
  return ([1, 2, 4] as const).find((size) => size === wanted) ?? n;
}

/**
 * The picture at 1/(8/n) scale, ceil(width · n / 8) x ceil(height · n / 8) (libjpeg's scaled size), in RGB: grey
 * replicated, YCbCr converted (JFIF), or RGB as stored (an Adobe marker saying so, or components named R, G, B).
 * A component with fewer samples than pixels is replicated to each pixel it covers, and the conversion truncates,
 * as jpeg-js did: the face match levels, the quality limits and the passive scores were calibrated on its output.
 */
export function toRgb(frame: JpegFrame, planes: ComponentPlanes, colour: 'grey' | 'ycbcr' | 'rgb'): RgbImage {
  const { n } = planes;
  const width = Math.ceil((frame.width * n) / 8);
  const height = Math.ceil((frame.height * n) / 8);
  const rgb = new Uint8Array(width * height * 3);
  // A float stored into a Uint8Array is truncated; clamped first, as jpeg-js's clampTo8bit.
  const clamp = (value: number) => (value < 0 ? 0 : value > 255 ? 255 : value);
  const sources = frame.components.map((c, i) => {
    const { samples, nx, ny, stride } = planes.planes[i];
    return {
      samples,
      stride,
      columns: Uint32Array.from({ length: width }, (_, x) => Math.floor((x * c.h * nx) / (frame.hMax * n))),
      rowScale: (c.v * ny) / (frame.vMax * n),
    };
  });
  for (let y = 0, o = 0; y < height; y++) {
    const rows = sources.map((s) => Math.floor(y * s.rowScale) * s.stride);
    for (let x = 0; x < width; x++, o += 3) {
      const a = sources[0].samples[rows[0] + sources[0].columns[x]];
      if (colour === 'grey') {
        rgb[o] = rgb[o + 1] = rgb[o + 2] = a;
        continue;
      }
      const b = sources[1].samples[rows[1] + sources[1].columns[x]];
      const c = sources[2].samples[rows[2] + sources[2].columns[x]];
      if (colour === 'rgb') {
        rgb[o] = a;
        rgb[o + 1] = b;
        rgb[o + 2] = c;
        continue;
      }
      rgb[o] = clamp(a + 1.402 * (c - 128));
      rgb[o + 1] = clamp(a - 0.3441363 * (b - 128) - 0.71413636 * (c - 128));
      rgb[o + 2] = clamp(a + 1.772 * (b - 128));
    }
  }
  return { width, height, data: rgb };
}
