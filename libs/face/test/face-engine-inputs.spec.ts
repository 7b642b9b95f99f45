import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FaceApiEngine, decodeImage, type RgbImage } from '@identity-broker/face';
import { encodeJ2k, wrapJp2 } from './helpers/encode-jpeg2000.js';

const FACES = join(import.meta.dirname, '../../../test/fixtures/verifier-faces');
const face = (name: string) => decodeImage(new Uint8Array(readFileSync(join(FACES, name))));

/** Grey canvas with the given images pasted side by side, each with a margin of `margin` pixels. */
function sideBySide(images: RgbImage[], margin: number): RgbImage {
  const width = images.reduce((sum, image) => sum + image.width + 2 * margin, 0);
  const height = Math.max(...images.map((image) => image.height)) + 2 * margin;
  const data = new Uint8Array(width * height * 3).fill(128);
  let left = margin;
  for (const image of images) {
    for (let y = 0; y < image.height; y++) {
      data.set(image.data.subarray(y * image.width * 3, (y + 1) * image.width * 3), ((y + margin) * width + left) * 3);
    }
    left += image.width + 2 * margin;
  }
  return { width, height, data };
}

describe('face engine inputs', () => {
  const engine = new FaceApiEngine();
  beforeAll(() => engine.warmUp(), 120_000);

  it('refuses two faces of similar size with MULTIPLE_FACES, but detects both', async () => {
    const pair = sideBySide([await face('howard-center.png'), await face('sheldon-center.png')], 75);
    expect(await engine.detect(pair)).toHaveLength(2);
    await expect(engine.embed(pair)).rejects.toMatchObject({ name: 'FaceError', code: 'MULTIPLE_FACES' });
  });

  it('embeds a lossless JP2 (DG2 layout) exactly like the same pixels given as PNG', async () => {
    const pixels = await face('howard-center.png');
    const jp2 = wrapJp2(await encodeJ2k(pixels), pixels.width, pixels.height);
    const fromJp2 = await engine.embed(jp2);
    const fromPixels = await engine.embed(pixels);
    expect(engine.similarity(fromJp2.embedding, fromPixels.embedding)).toBeCloseTo(0, 5);
  });

  it('reports landmarks and boxes in the coordinates of the unpadded input', async () => {
    const pixels = await face('howard-center.png'); // tight 150x150 crop: detected on a padded copy
    const [detection] = await engine.detect(pixels);
    const nose = detection.landmarks[30];
    expect(nose.x).toBeGreaterThan(0);
    expect(nose.x).toBeLessThan(pixels.width);
    expect(nose.y).toBeGreaterThan(0);
    expect(nose.y).toBeLessThan(pixels.height);
  });
});
