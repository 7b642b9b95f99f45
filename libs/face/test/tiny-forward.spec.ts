import { loadFaceApi, padImage, type RgbImage } from '@identity-broker/face';
import { noise, testFace, type Tensor, type Tf } from './helpers/forward-pass.js';

/** The detector's input as the engine makes it (detectorTensor): the frame as a float32 tensor, face-api's NetInput around it. */
async function tinyInput(image: RgbImage) {
  const faceapi = await loadFaceApi();
  const tf = faceapi.tf as unknown as Tf;
  const tensor = tf.tensor3d(Float32Array.from(image.data), [image.height, image.width, 3], 'float32');
  return { faceapi, tf, tensor, netInput: await faceapi.toNetInput(tensor as never) };
}

type FaceApi = Awaited<ReturnType<typeof loadFaceApi>>;
const ours = (faceapi: FaceApi, netInput: unknown, size: number) => faceapi.nets.tinyFaceDetector.forwardInput(netInput as never, size) as unknown as Tensor;
/** face-api's own forward pass, which useLeanTinyForward replaced on the loaded network. */
const theirs = (faceapi: FaceApi, netInput: unknown, size: number) =>
  faceapi.TinyFaceDetector.prototype.forwardInput.call(faceapi.nets.tinyFaceDetector, netInput as never, size) as unknown as Tensor;

describe("The Tiny Face Detector's forward pass, freeing each tensor as it goes", () => {
  it.each([
    ['a genuine selfie at 320', () => testFace('sheldon-center.png'), 320],
    ['a turned head at 224', () => testFace('penny-left.png'), 224],
    ['noise, not square, at 320', async () => noise(640, 480, 7), 320],
  ])('%s: the same output as face-api, value for value, and no tensor left behind', async (_, load, size) => {
    const { faceapi, tf, tensor, netInput } = await tinyInput(await load());
    const tensorsBefore = tf.memory().numTensors;
    const [a, b] = [ours(faceapi, netInput, size), theirs(faceapi, netInput, size)];
    try {
      const values = a.dataSync();
      expect(values.length).toBe(((size / 32) | 0) ** 2 * 25);
      expect(Array.from(values)).toEqual(Array.from(b.dataSync()));
    } finally {
      a.dispose();
      b.dispose();
    }
    expect(tf.memory().numTensors).toBe(tensorsBefore);
    tensor.dispose();
  });

  it('finds the face face-api finds (detectAllFaces goes through the replaced pass)', async () => {
    // A tight crop padded by half, as the engine frames the test faces.
    const { faceapi, tensor } = await tinyInput(padImage(await testFace('sheldon-center.png'), 0.5).image);
    try {
      const found = await faceapi.detectAllFaces(tensor as never, new faceapi.TinyFaceDetectorOptions({ inputSize: 320, scoreThreshold: 0.5 }));
      expect(found).toHaveLength(1);
      expect(found[0].score).toBeGreaterThan(0.7);
    } finally {
      tensor.dispose();
    }
  });

  it('holds at most 21 MB of tensors above the weights at once at 320, where face-api holds over 35 MB', async () => {
    const { faceapi, tf, tensor, netInput } = await tinyInput(noise(320, 320, 3));
    /** The most bytes of tensors alive at once during the pass, above those alive before it, in MB. */
    const peakAbove = async (forward: () => Tensor) => {
      const before = tf.memory().numBytes;
      let output: Tensor | undefined;
      const { peakBytes } = await tf.profile(() => void (output = forward()));
      output!.dispose();
      return (peakBytes - before) / 1e6;
    };
    const lean = await peakAbove(() => ours(faceapi, netInput, 320));
    const full = await peakAbove(() => theirs(faceapi, netInput, 320));
    tensor.dispose();
    expect({ lean, full, leanWithin: lean <= 21, fullOver: full > 35 }).toMatchObject({ leanWithin: true, fullOver: true });
  });
});
