import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { phoneReplay } from '@identity-broker/face/calibration';
import { FaceApiEngine, decodeImage, loadPresentationModels, presentationModelDirectory } from '@identity-broker/face';
import { cropFace, presentationCropBox } from '../src/presentation/crop-face.js';

const FACES = join(import.meta.dirname, '../../../test/fixtures/verifier-faces');
const face = (name: string) => new Uint8Array(readFileSync(join(FACES, name)));

describe('passive presentation-attack models (Human antispoof + liveness, from the npm package)', () => {
  const engine = new FaceApiEngine();

  beforeAll(() => engine.warmUp(), 120_000);

  it('loads both graph models from @vladmandic/human/models with their input sizes', async () => {
    for (const file of ['antispoof.json', 'antispoof.bin', 'liveness.json', 'liveness.bin'])
      expect(existsSync(join(presentationModelDirectory(), file))).toBe(true);
    const { antispoof, liveness } = await loadPresentationModels();
    expect(antispoof.inputs[0].shape).toEqual([-1, 128, 128, 3]);
    expect(liveness.inputs[0].shape).toEqual([-1, 32, 32, 3]);
  });

  it('scores the genuine fixture faces as live on embed()', async () => {
    // Measured: sheldon-center 0.73 / 0.96, penny-center 0.66 / 0.99 (antispoof / liveness).
    for (const name of ['sheldon-center.png', 'penny-center.png']) {
      const { presentation } = await engine.embed(face(name));
      expect(presentation!.antispoof).toBeGreaterThan(0.5);
      expect(presentation!.liveness).toBeGreaterThan(0.8);
    }
  });

  it('scores a synthetic phone-screen replay of the same face low on liveness', async () => {
    const replay = phoneReplay(await decodeImage(face('sheldon-center.png')));
    const { presentation } = await engine.embed(replay);
    expect(presentation!.liveness).toBeLessThan(0.4);
  });

  it('does not score when told not to', async () => {
    const plain = new FaceApiEngine({ presentation: false });
    expect((await plain.embed(face('sheldon-center.png'))).presentation).toBeUndefined();
  });

  it('crops the enlarged square face box in [0, 1], black outside the image', async () => {
    const image = await decodeImage(face('sheldon-center.png'));
    const { detection } = await engine.embed(image);
    const box = presentationCropBox(detection);
    expect(box.width).toBeCloseTo(box.height, 6);
    expect(box.width).toBeGreaterThan(detection.box.width);
    const crop = cropFace(image, { x: -image.width, y: 0, width: image.width * 2, height: image.height }, 32);
    expect(crop.length).toBe(32 * 32 * 3);
    expect(Math.max(...crop.subarray(0, 15 * 3))).toBe(0); // left half of the first row is outside the image
    expect(Math.max(...crop)).toBeLessThanOrEqual(1);
  });
});
