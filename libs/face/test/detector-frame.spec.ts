import { loadFaceApi, type RgbImage } from '@identity-broker/face';
import { DetectorFrame } from '../src/face-api/detector-frame.js';
import { padImage } from '../src/image/pad-image.js';

interface Tensor {
  shape: number[];
  dataSync(): Float32Array;
  dispose(): void;
}
/** The tfjs operations face-api applies to the square (its typings list a subset of tfjs; load-face-api.ts). */
interface Tf {
  image: { resizeBilinear(t: Tensor, size: [number, number], alignCorners: boolean, halfPixelCenters: boolean): Tensor };
  slice(t: Tensor, begin: number[], size: number[]): Tensor;
}

/** Noise, so that every interpolation weight and every edge pixel matters. */
function noise(width: number, height: number, seed: number): RgbImage {
  const data = new Uint8Array(width * height * 3);
  let s = seed;
  for (let i = 0; i < data.length; i++) data[i] = (s = (s * 1103515245 + 12345) % 2 ** 31) >> 23;
  return { width, height, data };
}

/** The square SSD saw before: the image edge-padded (padImage), then squared with zeros by face-api's own padToSquare. */
async function squareTensor(image: RgbImage, fraction: number): Promise<Tensor> {
  const faceapi = await loadFaceApi();
  const padded = fraction > 0 ? padImage(image, fraction).image : image;
  const batch = faceapi.tf.tensor4d(Float32Array.from(padded.data), [1, padded.height, padded.width, 3], 'float32');
  const square = faceapi.padToSquare(batch, false);
  const single = (square as unknown as { squeeze(axis: number[]): Tensor }).squeeze([0]);
  batch.dispose();
  if (square !== batch) square.dispose();
  return single;
}

async function tfjs(): Promise<Tf> {
  return (await loadFaceApi()).tf as unknown as Tf;
}

describe("the detector's frame, never made whole", () => {
  it.each([
    ['a landscape frame padded by half, as a 12 MP selfie is (side a multiple of 512)', 640, 480, 0.5],
    ['a portrait frame padded by half (the square ends in zeros to the right)', 301, 397, 0.5],
    ['a small crop padded by its own size', 150, 150, 1],
    ['an unpadded landscape frame', 333, 250, 0],
  ])('%s: its 512x512 resize equals tfjs resizeBilinear of the square, value for value', async (_, width, height, fraction) => {
    const image = noise(width, height, width * 7 + height);
    const square = await squareTensor(image, fraction);
    const tf = await tfjs();
    const resized = tf.image.resizeBilinear(square, [512, 512], false, false);
    try {
      const frame = DetectorFrame.padded(image, fraction);
      expect(frame.side).toBe(square.shape[0]);
      expect(Array.from(frame.resized(512))).toEqual(Array.from(resized.dataSync()));
    } finally {
      square.dispose();
      resized.dispose();
    }
  });

  it('gives a region as tf.slice takes it out of the square, padding and zeros included', async () => {
    const image = noise(120, 90, 5);
    const square = await squareTensor(image, 0.5);
    const tf = await tfjs();
    const frame = DetectorFrame.padded(image, 0.5);
    // Across the left padding into the image, and across the padded image's bottom edge into the squaring zeros.
    for (const region of [
      { x: 10, y: 30, width: 100, height: 40 },
      { x: 150, y: 150, width: 70, height: 80 },
    ]) {
      const slice = tf.slice(square, [region.y, region.x, 0], [region.height, region.width, 3]);
      try {
        expect(Array.from(frame.region(region))).toEqual(Array.from(slice.dataSync()));
      } finally {
        slice.dispose();
      }
    }
    square.dispose();
    expect(() => frame.region({ x: 200, y: 0, width: 50, height: 10 })).toThrow(RangeError);
  });
});
