/**
 * Prints the capture-quality distribution of every fixture face (test/fixtures/verifier-faces and
 * /work/shared/testdata/faces, or the folders given), to calibrate DEFAULT_QUALITY_THRESHOLDS
 * (libs/face/src/quality/face-quality.ts): every usable fixture face must pass them.
 *
 *   node --import tsx libs/face/test/print-face-quality.ts [folder ...]
 */
import { readdirSync, statSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  FaceApiEngine,
  decodeImageToFit,
  MAX_ANALYSIS_SIDE,
  DEFAULT_QUALITY_THRESHOLDS,
  judgeFaceQuality,
  measureFaceQuality,
  type FaceQualityMetrics,
} from '@identity-broker/face';

const folders = process.argv.slice(2).length
  ? process.argv.slice(2)
  : [join(import.meta.dirname, '../../../test/fixtures/verifier-faces'), '/work/shared/testdata/faces'];
const images = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? images(path) : /\.(jpe?g|png)$/i.test(name) ? [path] : [];
  });

async function main(): Promise<void> {
  const engine = new FaceApiEngine();
  const rows: (FaceQualityMetrics & { path: string; verdict?: string })[] = [];
  for (const path of folders.flatMap(images)) {
    let image;
    try {
      image = (await decodeImageToFit(new Uint8Array(readFileSync(path)), MAX_ANALYSIS_SIDE)).image;
    } catch {
      continue; // not an image the service accepts (one fixture is WebP under a .jpg name)
    }
    const faces = await engine.detect(image);
    if (faces.length === 0) continue; // no usable face: not part of the calibration
    const metrics = measureFaceQuality(image, faces[0].box);
    rows.push({ path, ...metrics, verdict: judgeFaceQuality(metrics, undefined) });
  }
  const stats = (key: keyof FaceQualityMetrics) => {
    const v = rows.map((r) => r[key]).sort((a, b) => a - b);
    const q = (p: number) => v[Math.min(v.length - 1, Math.floor(p * v.length))].toFixed(1);
    return `${key}: min ${q(0)} p5 ${q(0.05)} median ${q(0.5)} p95 ${q(0.95)} max ${q(1)}`;
  };
  console.log(`${rows.length} faces; thresholds ${JSON.stringify(DEFAULT_QUALITY_THRESHOLDS)}`);
  for (const key of ['sharpness', 'luminance', 'faceSize'] as const) console.log(stats(key));
  for (const r of rows.filter((r) => r.verdict))
    console.log(`REFUSED ${r.verdict} ${r.path} sharpness ${r.sharpness.toFixed(1)} luminance ${r.luminance.toFixed(1)} face ${r.faceSize.toFixed(0)}`);
}

void main();
