import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FaceApiEngine, decodeImage, loadFaceApi, type RgbImage } from '@identity-broker/face';
import { detectorTensor } from '../src/face-api/detector-tensor.js';

const face = (name: string) => new Uint8Array(readFileSync(join(import.meta.dirname, '../../../test/fixtures/verifier-faces', name)));

/** face-api's typings list a subset of tfjs; at run time its tf is the full library (load-face-api.ts). */
interface Tf {
  memory(): { numTensors: number };
}

/** A tight crop placed in a wider frame of flat grey: the light detector sees it fill the height, so it is padded. */
async function landscapeFrame(): Promise<RgbImage> {
  const crop = await decodeImage(face('sheldon-center.png'));
  const width = 240;
  const height = crop.height;
  const data = new Uint8Array(width * height * 3).fill(128);
  for (let y = 0; y < height; y++) data.set(crop.data.subarray(y * crop.width * 3, (y + 1) * crop.width * 3), (y * width + 45) * 3);
  return { width, height, data };
}

describe("the detector's input tensor", () => {
  it("holds the pixels as float32, in the image's own shape", async () => {
    const faceapi = await loadFaceApi();
    const image = { width: 3, height: 2, data: Uint8Array.from({ length: 18 }, (_, i) => i + 1) };
    const tensor = detectorTensor(faceapi, image);
    try {
      expect([tensor.shape, tensor.dtype]).toEqual([[2, 3, 3], 'float32']);
      expect(Array.from(tensor.dataSync())).toEqual(Array.from(image.data));
    } finally {
      tensor.dispose();
    }
  });

  it('finds the face of a padded wide frame in its own coordinates, and leaves no tensor behind', async () => {
    const tf = (await loadFaceApi()).tf as unknown as Tf;
    const engine = new FaceApiEngine();
    const frame = await landscapeFrame();
    const square = await engine.analyseFace(face('sheldon-center.png'), { descriptor: true });
    const before = tf.memory().numTensors;
    const wide = await engine.analyseFace(frame, { descriptor: true });
    expect(wide.padding).toBe(0.5);
    // The same face, 45 pixels to the right, in the frame's coordinates (the zeros squaring the tensor lie outside it).
    const { box } = square.detection;
    expect(Math.abs(wide.detection.box.x - 45 - box.x)).toBeLessThan(0.1 * box.width);
    expect(Math.abs(wide.detection.box.y - box.y)).toBeLessThan(0.1 * box.height);
    expect(Math.abs(wide.detection.box.width - box.width)).toBeLessThan(0.1 * box.width);
    expect(engine.similarity(wide.embedding!, square.embedding!)).toBeLessThan(0.1); // level 1 accepts under 0.41
    await engine.analyseFace(face('sheldon-left.png'), { descriptor: true, detector: 'fast', padding: 0.5, mirror: false });
    await expect(engine.analyseFace({ width: 150, height: 150, data: new Uint8Array(150 * 150 * 3).fill(128) })).rejects.toMatchObject({ code: 'NO_FACE' });
    expect(tf.memory().numTensors).toBe(before);
  }, 120_000);
});
