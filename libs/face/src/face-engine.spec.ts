import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { FaceError, FaceApiEngine, decodeImage, flipHorizontal, loadMatchLevelTable } from '@identity-broker/face';

const FACES = join(import.meta.dirname, '../../../test/fixtures/verifier-faces');
const face = (name: string) => new Uint8Array(readFileSync(join(FACES, name)));
/** A JPEG 2000 face image (a chip photo) from the ICAO vectors: 413x531 per the image itself. */
const jp2 = () => new Uint8Array(readFileSync(join(import.meta.dirname, '../../../test/fixtures/icao/dg2/EF_DG2_ISO39794-5_expected_face.jpg')));

function solidJpeg(width: number, height: number): Uint8Array {
  const data = Buffer.alloc(width * height * 4, 200);
  return new Uint8Array(jpeg.encode({ width, height, data }, 90).data);
}

describe('face engine (face-api on the WASM backend)', () => {
  const engine = new FaceApiEngine();
  const levels = loadMatchLevelTable(engine.name);

  beforeAll(() => engine.warmUp(), 120_000);

  it('decodes JPEG, PNG and JPEG 2000, and refuses anything else as BAD_IMAGE', async () => {
    const fromJpeg = await decodeImage(face('howard-document.jpg'));
    expect(fromJpeg.data.length).toBe(fromJpeg.width * fromJpeg.height * 3);
    const fromPng = await decodeImage(face('howard-center.png'));
    expect([fromPng.width, fromPng.height]).toEqual([PNG.sync.read(Buffer.from(face('howard-center.png'))).width, 150]);
    const fromJp2 = await decodeImage(jp2());
    expect([fromJp2.width, fromJp2.height]).toEqual([413, 531]);
    await expect(decodeImage(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]))).rejects.toMatchObject({ code: 'BAD_IMAGE' });
    await expect(engine.embed(new Uint8Array(Buffer.from('not an image')))).rejects.toBeInstanceOf(FaceError);
  });

  it('finds one face with landmarks and a pose, and none in a blank image (NO_FACE)', async () => {
    const [detection, ...others] = await engine.detect(face('howard-center.png'));
    expect(others).toHaveLength(0);
    expect(detection.landmarks).toHaveLength(68);
    expect(detection.score).toBeGreaterThan(0.5);
    expect(Math.abs(detection.pose.yaw)).toBeLessThan(10);
    expect(await engine.detect(solidJpeg(200, 200))).toEqual([]);
    await expect(engine.embed(solidJpeg(200, 200))).rejects.toMatchObject({ code: 'NO_FACE' });
  });

  it('reads a head turn from the landmarks, and its mirror image as the opposite turn', async () => {
    const turned = (await engine.detect(face('howard-right.png')))[0].pose.yaw;
    const mirrored = (await engine.detect(flipHorizontal(await decodeImage(face('howard-right.png')))))[0].pose.yaw;
    expect(turned).toBeLessThan(-12);
    expect(mirrored).toBeGreaterThan(12);
    expect(Math.sign(turned)).toBe(-Math.sign(mirrored));
  });

  it('gives the same person a high level and another person level 0', async () => {
    const documentPhoto = await engine.embed(face('howard-document.jpg'));
    const same = await engine.embed(face('howard-center.png'));
    const other = await engine.embed(face('sheldon-center.png'));
    expect(levels.level(engine.similarity(documentPhoto.embedding, same.embedding))).toBeGreaterThanOrEqual(7);
    expect(levels.level(engine.similarity(documentPhoto.embedding, other.embedding))).toBe(0);
    expect(engine.similarity(same.embedding, same.embedding)).toBeCloseTo(0, 6);
  });

  it('embeds a JPEG 2000 chip photo', async () => {
    const { embedding } = await engine.embed(jp2());
    expect(embedding).toHaveLength(128);
  });
});
