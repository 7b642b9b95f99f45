/** Output samples per block side: 8 at full size, 4, 2 or 1 at 1/2, 1/4 or 1/8 scale. */
export type BlockSize = 8 | 4 | 2 | 1;

/** basis[x * 8 + u] = C(u)/2 · cos((2x + 1)uπ / 16), C(0) = 1/√2: the JPEG inverse DCT (T.81 §A.3.3), one dimension. */
const BASIS = Float64Array.from({ length: 64 }, (_, i) => {
  const x = i >> 3;
  const u = i & 7;
  return ((u === 0 ? Math.SQRT1_2 : 1) / 2) * Math.cos(((2 * x + 1) * u * Math.PI) / 16);
});

/**
 * Turns one block's quantized coefficients (natural order) into nx x ny samples of `plane` (`stride` samples a row)
 * with its top-left at `at`: the block's 8x8 inverse DCT, each (8/nx) x (8/ny) rectangle averaged, so a reduced plane holds
 * exactly what the full picture averaged down would (the n-point IDCT on the lowest frequencies that libjpeg uses
 * for scaled output is cheaper but blockier, and moved the passive presentation scores of upscaled frames by 0.25).
 * The 8x8 samples exist for one block at a time; the clamped array rounds and clamps to 0-255.
 */
/* eslint-disable-next-line complexity -- the decoder's innermost work, once per 8x8 block: the count is mostly its
   nested loops (rows, columns, averaging; each `for` counts) and the flat-block, zero-row and full-size shortcuts,
   kept inline on purpose (helpers would cost a call per row of every block) */
export function inverseDctBlock(
  coefficients: Int16Array,
  offset: number,
  quantization: Uint16Array,
  nx: BlockSize,
  ny: BlockSize,
  plane: Uint8ClampedArray,
  at: number,
  stride: number,
  work: Float64Array,
): void {
  let ac = false;
  for (let k = 1; k < 64 && !ac; k++) if (coefficients[offset + k] !== 0) ac = true;
  if (!ac) {
    // Only DC: a flat block, its mean.
    const value = (coefficients[offset] * quantization[0]) / 8 + 128;
    for (let y = 0; y < ny; y++) plane.fill(value, at + y * stride, at + y * stride + nx);
    return;
  }
  // Rows: work[v * 8 + x] = Σu F(v, u) · basis(x, u), skipping rows of zeros; then columns into work[64 + y * 8 + x].
  for (let v = 0; v < 8; v++) {
    const row = offset + v * 8;
    let any = false;
    for (let u = 0; u < 8 && !any; u++) any = coefficients[row + u] !== 0;
    for (let x = 0; x < 8; x++) {
      let sum = 0;
      if (any) for (let u = 0; u < 8; u++) sum += coefficients[row + u] * quantization[v * 8 + u] * BASIS[x * 8 + u];
      work[v * 8 + x] = sum;
    }
  }
  for (let y = 0; y < 8; y++) {
    for (let x = 0; x < 8; x++) {
      let sum = 128;
      for (let v = 0; v < 8; v++) sum += BASIS[y * 8 + v] * work[v * 8 + x];
      // Each sample as the full picture has it (rounded, clamped: ringing past 0-255 must not leak into a mean).
      work[64 + y * 8 + x] = sum <= 0 ? 0 : sum >= 255 ? 255 : Math.round(sum);
    }
  }
  if (nx === 8 && ny === 8) {
    for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) plane[at + y * stride + x] = work[64 + y * 8 + x];
    return;
  }
  const sx = 8 / nx;
  const sy = 8 / ny;
  for (let y = 0; y < ny; y++) {
    for (let x = 0; x < nx; x++) {
      let sum = 0;
      for (let dy = 0; dy < sy; dy++) for (let dx = 0; dx < sx; dx++) sum += work[64 + (y * sy + dy) * 8 + x * sx + dx];
      plane[at + y * stride + x] = sum / (sx * sy);
    }
  }
}
