import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  decodeImage,
  flipHorizontal,
  DEFAULT_QUALITY_THRESHOLDS,
  judgeFaceQuality,
  measureFaceQuality,
  frameSignature,
  signatureDistance,
  type RgbImage,
} from '@identity-broker/face';
import { blur, encodeJpeg, rotate } from '../../../scripts/test-app/synthesise-frames.js';

const fixture = (name: string) => decodeImage(new Uint8Array(readFileSync(join(import.meta.dirname, '../../../test/fixtures/verifier-faces', name))));
const frontal = { yaw: 2, pitch: -12, roll: 1 };

const scaled = (image: RgbImage, k: number): RgbImage => ({ ...image, data: image.data.map((v) => Math.min(255, Math.round(v * k))) });

describe('face capture quality', () => {
  let face: RgbImage;
  const box = { x: 15, y: 10, width: 120, height: 130 };
  beforeAll(async () => {
    face = await fixture('sheldon-center.png');
  });

  it('passes a usable frontal face', () => {
    const m = measureFaceQuality(face, box);
    expect(judgeFaceQuality(m, frontal)).toBeUndefined();
    expect(m.faceSize).toBe(120);
  });

  it('refuses a blurred, dark, overexposed or small face, and a centre frame turned away', () => {
    expect(judgeFaceQuality(measureFaceQuality(blur(face, 3), box), frontal)).toBe('FACE_TOO_BLURRED');
    expect(judgeFaceQuality(measureFaceQuality(scaled(face, 0.2), box), frontal)).toBe('FACE_TOO_DARK');
    expect(judgeFaceQuality(measureFaceQuality(scaled(face, 3), box), frontal)).toBe('FACE_TOO_BRIGHT');
    expect(judgeFaceQuality(measureFaceQuality(face, { ...box, width: 50, height: 60 }), frontal)).toBe('FACE_TOO_SMALL');
    expect(judgeFaceQuality(measureFaceQuality(face, box), { yaw: 25, pitch: 0, roll: 0 })).toBe('FACE_OFF_POSE');
    expect(judgeFaceQuality(measureFaceQuality(face, box), { yaw: 0, pitch: 0, roll: 30 })).toBe('FACE_OFF_POSE');
    // The pose is judged only for the centre frame.
    expect(judgeFaceQuality(measureFaceQuality(face, box), undefined)).toBeUndefined();
  });

  it('measures sharpness on the face crop at a fixed size, so the frame size does not change it much', () => {
    const sharp = measureFaceQuality(face, box).sharpness;
    expect(measureFaceQuality(blur(face, 1), box).sharpness).toBeLessThan(sharp / 2);
    expect(DEFAULT_QUALITY_THRESHOLDS.minSharpness).toBeLessThan(sharp);
  });
});

describe('frame signatures (still pictures without a model)', () => {
  it('finds a picture sent twice (re-encoded, brightened) and a mirror image, not two frames of a moving head', async () => {
    const centre = await fixture('sheldon-center.png');
    const turned = await fixture('sheldon-left.png');
    const sig = frameSignature(centre);
    const reencoded = frameSignature(await decodeImage(encodeJpeg(scaled(centre, 1.2), 70)));
    expect(signatureDistance(sig, reencoded)).toBeLessThan(0.2);
    const mirrored = frameSignature(await decodeImage(encodeJpeg(flipHorizontal(centre), 80)));
    expect(signatureDistance(sig, mirrored, true)).toBeLessThan(0.25);
    // A face is never exactly symmetric: a frame and its own mirror image are far apart, and so are real frames.
    expect(signatureDistance(sig, sig, true)).toBeGreaterThan(0.5);
    expect(signatureDistance(sig, frameSignature(turned))).toBeGreaterThan(0.5);
    expect(signatureDistance(sig, frameSignature(rotate(centre, 10)))).toBeGreaterThan(0.25);
  });
});
