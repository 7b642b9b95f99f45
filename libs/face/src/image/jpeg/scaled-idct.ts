/** Output samples per block side: 8 at full size, 4, 2 or 1 at 1/2, 1/4 or 1/8 scale. */
export type BlockSize = 8 | 4 | 2 | 1;

const tables = new Map<BlockSize, Float64Array>();

/**
 * basis[x * n + u] = C(u)/2 · cos((2x + 1)uπ / 2n), C(0) = 1/√2: the n-point inverse DCT on the block's n x n
 * lowest frequencies. For n = 8 it is the JPEG IDCT (T.81 §A.3.3); for n < 8 it is what libjpeg's reduced-size
 * IDCTs compute: each output sample stands for an (8/n)² area of the picture, and a block of only DC gives its
 * mean, so scaling in the DCT domain costs a fraction of decoding the full picture and averaging it down.
 */
function basis(n: BlockSize): Float64Array {
  let table = tables.get(n);
  if (!table) {
    table = new Float64Array(n * n);
    for (let x = 0; x < n; x++) {
      for (let u = 0; u < n; u++) table[x * n + u] = ((u === 0 ? Math.SQRT1_2 : 1) / 2) * Math.cos(((2 * x + 1) * u * Math.PI) / (2 * n));
    }
    tables.set(n, table);
  }
  return table;
}

/**
 * Turns one block's quantized coefficients (natural order) into n x n samples of `plane` (`stride` samples a row)
 * with its top-left at `at`; the clamped array rounds and clamps to 0-255.
 */
export function inverseDctBlock(coefficients: Int16Array, offset: number, quantization: Uint16Array, n: BlockSize, plane: Uint8ClampedArray, at: number, stride: number, work: Float64Array): void {
  let ac = false;
  for (let v = 0; v < n && !ac; v++) for (let u = v === 0 ? 1 : 0; u < n; u++) if (coefficients[offset + v * 8 + u] !== 0) ac = true;
  if (!ac) {
    // Only DC (most blocks at 1/8, many at any scale): a flat block, its mean.
    const value = (coefficients[offset] * quantization[0]) / 8 + 128;
    for (let y = 0; y < n; y++) plane.fill(value, at + y * stride, at + y * stride + n);
    return;
  }
  const table = basis(n);
  // Rows: work[v * n + x] = Σu F(v, u) · basis(x, u); then columns: sample(x, y) = Σv basis(y, v) · work[v * n + x].
  for (let v = 0; v < n; v++) {
    const row = offset + v * 8;
    for (let x = 0; x < n; x++) {
      let sum = 0;
      for (let u = 0; u < n; u++) {
        const f = coefficients[row + u];
        if (f !== 0) sum += f * quantization[v * 8 + u] * table[x * n + u];
      }
      work[v * n + x] = sum;
    }
  }
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      let sum = 128;
      for (let v = 0; v < n; v++) sum += table[y * n + v] * work[v * n + x];
      plane[at + y * stride + x] = sum;
    }
  }
}
