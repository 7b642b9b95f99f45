import { alignFace, applyTransform, ARCFACE_TEMPLATE_112, estimateSimilarity, fivePointsFrom68 } from './align-face.js';
import type { Point } from '@identity-broker/face';

describe('ArcFace 5-point alignment', () => {
  it('recovers a known rotation, scale and shift exactly, and never reflects', () => {
    const truth = { a: 1.7 * Math.cos(0.3), b: 1.7 * Math.sin(0.3), tx: -12, ty: 40 };
    const from: Point[] = [
      { x: 10, y: 20 },
      { x: 60, y: 18 },
      { x: 35, y: 45 },
      { x: 15, y: 70 },
      { x: 55, y: 72 },
    ];
    const fitted = estimateSimilarity(
      from,
      from.map((p) => applyTransform(truth, p)),
    );
    for (const key of ['a', 'b', 'tx', 'ty'] as const) expect(fitted[key]).toBeCloseTo(truth[key], 9);
    // A mirrored face cannot be fitted by a rotation: the best similarity leaves a large residual.
    const mirrored = estimateSimilarity(
      from,
      from.map((p) => ({ x: -p.x, y: p.y })),
    );
    const residual = from.reduce((sum, p) => sum + Math.hypot(applyTransform(mirrored, p).x + p.x, applyTransform(mirrored, p).y - p.y), 0);
    expect(residual).toBeGreaterThan(50);
  });

  it('takes eye centres, nose tip and mouth corners from the 68-point layout, in template order', () => {
    const landmarks: Point[] = Array.from({ length: 68 }, (_, i) => ({ x: i, y: 2 * i }));
    expect(fivePointsFrom68(landmarks)).toEqual([
      { x: 38.5, y: 77 },
      { x: 44.5, y: 89 },
      { x: 30, y: 60 },
      { x: 48, y: 96 },
      { x: 54, y: 108 },
    ]);
    expect(() => fivePointsFrom68(landmarks.slice(5))).toThrow(RangeError);
  });

  it('warps the five points onto the template: a face already on the template comes out unchanged', () => {
    const size = 112;
    const data = new Uint8Array(size * size * 3);
    for (let i = 0; i < data.length; i++) data[i] = (i * 37) % 251;
    const image = { width: size, height: size, data };
    expect(alignFace(image, ARCFACE_TEMPLATE_112, 112).data).toEqual(data);
    // Points at half scale, 56-pixel input: the template scales with the input, so again the identity
    // (the crop is the source's top-left 56x56 corner).
    const half = alignFace(
      image,
      ARCFACE_TEMPLATE_112.map((p) => ({ x: p.x / 2, y: p.y / 2 })),
      56,
    );
    for (const row of [0, 30, 55]) expect(half.data.subarray(row * 56 * 3, (row + 1) * 56 * 3)).toEqual(data.subarray(row * size * 3, row * size * 3 + 56 * 3));
  });
});
