import type { RgbImage } from '../../types.js';
import { blockOffset, type JpegComponent, type JpegFrame } from './jpeg-frame.js';
import { inverseDctBlock, type BlockSize } from './scaled-idct.js';

/** Each component's samples at the output scale, blocks whole (the picture's last row and column of blocks may overhang). */
export class ComponentPlanes {
  readonly planes: Uint8ClampedArray[];
  private readonly work = new Float64Array(64);

  constructor(
    private readonly frame: JpegFrame,
    readonly n: BlockSize,
  ) {
    this.planes = frame.components.map((c) => new Uint8ClampedArray(c.blocksPerLine * n * c.blocksPerColumn * n));
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
    const { n } = this;
    const stride = c.blocksPerLine * n;
    for (let column = 0; column < c.blocksPerLine; column++) {
      inverseDctBlock(c.coefficients, blockOffset(c, row, column), c.quantization!, n, this.planes[index], row * n * stride + column * n, stride, this.work);
    }
  }
}

/**
 * The picture at the planes' scale, ceil(width · n / 8) x ceil(height · n / 8) (libjpeg's scaled size), in RGB:
 * grey replicated, YCbCr converted (JFIF), or RGB as stored (an Adobe marker saying so, or components named R, G,
 * B). Subsampled components are replicated to each pixel they cover, as jpeg-js did.
 */
export function toRgb(frame: JpegFrame, planes: ComponentPlanes, colour: 'grey' | 'ycbcr' | 'rgb'): RgbImage {
  const { n } = planes;
  const width = Math.ceil((frame.width * n) / 8);
  const height = Math.ceil((frame.height * n) / 8);
  const rgb = new Uint8ClampedArray(width * height * 3);
  const sources = frame.components.map((c, i) => ({
    plane: planes.planes[i],
    stride: c.blocksPerLine * n,
    columns: Uint32Array.from({ length: width }, (_, x) => Math.floor((x * c.h) / frame.hMax)),
    vScale: c.v / frame.vMax,
  }));
  for (let y = 0, o = 0; y < height; y++) {
    const rows = sources.map((s) => Math.floor(y * s.vScale) * s.stride);
    for (let x = 0; x < width; x++, o += 3) {
      const a = sources[0].plane[rows[0] + sources[0].columns[x]];
      if (colour === 'grey') {
        rgb[o] = rgb[o + 1] = rgb[o + 2] = a;
        continue;
      }
      const b = sources[1].plane[rows[1] + sources[1].columns[x]];
      const c = sources[2].plane[rows[2] + sources[2].columns[x]];
      if (colour === 'rgb') {
        rgb[o] = a;
        rgb[o + 1] = b;
        rgb[o + 2] = c;
        continue;
      }
      rgb[o] = a + 1.402 * (c - 128);
      rgb[o + 1] = a - 0.344136 * (b - 128) - 0.714136 * (c - 128);
      rgb[o + 2] = a + 1.772 * (b - 128);
    }
  }
  return { width, height, data: new Uint8Array(rgb.buffer) };
}
