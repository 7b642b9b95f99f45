import type { Point, RgbImage } from '../types.js';

/**
 * The standard ArcFace (insightface) 5-point template for a 112x112 crop, in image order: the eye on the
 * image's left (the subject's right eye), the other eye, nose tip, left and right mouth corner. ArcFace-class
 * models are trained on crops aligned to exactly these points; other input sizes scale it.
 */
export const ARCFACE_TEMPLATE_112: readonly Point[] = [
  { x: 38.2946, y: 51.6963 },
  { x: 73.5318, y: 51.5014 },
  { x: 56.0252, y: 71.7366 },
  { x: 41.5493, y: 92.3655 },
  { x: 70.7299, y: 92.2041 },
];

/** The 5 ArcFace points from the 68-point iBUG layout: eye centres (mean of each eye's 6 points), nose tip 30, mouth corners 48/54. */
export function fivePointsFrom68(landmarks: readonly Point[]): Point[] {
  if (landmarks.length !== 68) throw new RangeError(`expected 68 landmarks, got ${landmarks.length}`);
  const centre = (from: number, to: number) => {
    const points = landmarks.slice(from, to + 1);
    return { x: points.reduce((s, p) => s + p.x, 0) / points.length, y: points.reduce((s, p) => s + p.y, 0) / points.length };
  };
  return [centre(36, 41), centre(42, 47), landmarks[30], landmarks[48], landmarks[54]];
}

/** dst = scale * R(angle) * src + t, as a = scale*cos, b = scale*sin: x' = a x - b y + tx, y' = b x + a y + ty. */
export interface SimilarityTransform {
  a: number;
  b: number;
  tx: number;
  ty: number;
}

/**
 * Least-squares similarity transform (rotation, uniform scale, translation; no reflection, no shear)
 * mapping `from` onto `to` (Umeyama 1991 in 2-D, where it has this closed form). A similarity keeps the
 * face's proportions, which the model relies on; an affine fit to 5 points would distort them.
 */
export function estimateSimilarity(from: readonly Point[], to: readonly Point[]): SimilarityTransform {
  if (from.length !== to.length || from.length < 2) throw new RangeError('need two equally long lists of at least 2 points');
  const n = from.length;
  const mean = (ps: readonly Point[]) => ({ x: ps.reduce((s, p) => s + p.x, 0) / n, y: ps.reduce((s, p) => s + p.y, 0) / n });
  const mf = mean(from);
  const mt = mean(to);
  let dot = 0; // sum of <f, t> over centred points
  let cross = 0; // sum of f x t
  let norm = 0; // sum of |f|^2
  for (let i = 0; i < n; i++) {
    const fx = from[i].x - mf.x;
    const fy = from[i].y - mf.y;
    const tx = to[i].x - mt.x;
    const ty = to[i].y - mt.y;
    dot += fx * tx + fy * ty;
    cross += fx * ty - fy * tx;
    norm += fx * fx + fy * fy;
  }
  if (norm === 0) throw new RangeError('source points coincide');
  const a = dot / norm;
  const b = cross / norm;
  return { a, b, tx: mt.x - (a * mf.x - b * mf.y), ty: mt.y - (b * mf.x + a * mf.y) };
}

export function applyTransform(t: SimilarityTransform, p: Point): Point {
  return { x: t.a * p.x - t.b * p.y + t.tx, y: t.b * p.x + t.a * p.y + t.ty };
}

/**
 * Warps `image` into a size x size crop whose 5 points land on the template (scaled from 112). Each output
 * pixel is sampled bilinearly at its pre-image; outside the source the nearest edge pixel is repeated, as
 * insightface's alignment (cv2.warpAffine with a constant border differs only at the very edges).
 */
export function alignFace(image: RgbImage, fivePoints: readonly Point[], size: number): RgbImage {
  const scale = size / 112;
  const template = ARCFACE_TEMPLATE_112.map((p) => ({ x: p.x * scale, y: p.y * scale }));
  const forward = estimateSimilarity(fivePoints, template);
  // Inverse of a similarity: scale 1/s, rotation -angle.
  const det = forward.a * forward.a + forward.b * forward.b;
  const inverse = { a: forward.a / det, b: -forward.b / det, tx: 0, ty: 0 };
  inverse.tx = -(inverse.a * forward.tx - inverse.b * forward.ty);
  inverse.ty = -(inverse.b * forward.tx + inverse.a * forward.ty);

  const out = new Uint8Array(size * size * 3);
  const { width, height, data } = image;
  const at = (x: number, y: number, c: number) => data[(Math.min(height - 1, Math.max(0, y)) * width + Math.min(width - 1, Math.max(0, x))) * 3 + c];
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const source = applyTransform(inverse, { x, y });
      const x0 = Math.floor(source.x);
      const y0 = Math.floor(source.y);
      const fx = source.x - x0;
      const fy = source.y - y0;
      for (let c = 0; c < 3; c++) {
        const top = at(x0, y0, c) * (1 - fx) + at(x0 + 1, y0, c) * fx;
        const bottom = at(x0, y0 + 1, c) * (1 - fx) + at(x0 + 1, y0 + 1, c) * fx;
        out[(y * size + x) * 3 + c] = Math.round(top * (1 - fy) + bottom * fy);
      }
    }
  }
  return { width: size, height: size, data: out };
}
