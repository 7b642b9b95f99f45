import { loadFaceApi, type RgbImage } from '@identity-broker/face';
import { DetectorFrame } from '../src/face-api/detector-frame.js';
import { noise, testFace, type Tensor, type Tf } from './helpers/forward-pass.js';

interface SsdOutput {
  boxes: Tensor[];
  scores: Tensor[];
}

/** SSD's input as the engine makes it (runAccurate): the frame padded by `padding`, resized to 512x512. */
async function ssdInput(image: RgbImage, padding: number) {
  const faceapi = await loadFaceApi();
  const tf = faceapi.tf as unknown as Tf;
  const tensor = tf.tensor3d(DetectorFrame.padded(image, padding).resized(512), [512, 512, 3], 'float32');
  return { faceapi, tf, tensor, netInput: await faceapi.toNetInput(tensor as never) };
}

/** face-api's own forward pass, which useLeanSsdForward replaced on the loaded network. */
function faceApiForward(faceapi: Awaited<ReturnType<typeof loadFaceApi>>, netInput: unknown): SsdOutput {
  return faceapi.SsdMobilenetv1.prototype.forwardInput.call(faceapi.nets.ssdMobilenetv1, netInput as never) as unknown as SsdOutput;
}

const release = (output: SsdOutput) => [...output.boxes, ...output.scores].forEach((t) => t.dispose());

describe("SSD MobileNet v1's forward pass, freeing the backbone as it goes", () => {
  it.each([
    ['a genuine selfie, unpadded', () => testFace('sheldon-center.png'), 0],
    ['a turned head padded by half', () => testFace('penny-left.png'), 0.5],
    ['noise, where most anchors score', async () => noise(640, 480, 7), 0.25],
  ])('%s: the same boxes and scores as face-api, value for value, and no tensor left behind', async (_, load, padding) => {
    const { faceapi, tf, tensor, netInput } = await ssdInput(await load(), padding);
    const tensorsBefore = tf.memory().numTensors;
    const ours = faceapi.nets.ssdMobilenetv1.forwardInput(netInput) as unknown as SsdOutput;
    const theirs = faceApiForward(faceapi, netInput);
    try {
      expect(ours.boxes).toHaveLength(1);
      expect(Array.from(ours.boxes[0].dataSync())).toEqual(Array.from(theirs.boxes[0].dataSync()));
      expect(Array.from(ours.scores[0].dataSync())).toEqual(Array.from(theirs.scores[0].dataSync()));
    } finally {
      release(ours);
      release(theirs);
    }
    expect(tf.memory().numTensors).toBe(tensorsBefore);
    tensor.dispose();
  });

  it('finds the face face-api finds (detectAllFaces goes through the replaced pass)', async () => {
    const { faceapi, tensor } = await ssdInput(await testFace('sheldon-center.png'), 0.5);
    try {
      const found = await faceapi.detectAllFaces(tensor as never, new faceapi.SsdMobilenetv1Options({ minConfidence: 0.5 }));
      expect(found).toHaveLength(1);
      expect(found[0].score).toBeGreaterThan(0.9);
    } finally {
      tensor.dispose();
    }
  });

  it('holds at most 40 MB of tensors above the weights at once, where face-api holds over 100 MB', async () => {
    const { faceapi, tf, tensor, netInput } = await ssdInput(noise(512, 512, 3), 0);
    /** The most bytes of tensors alive at once during the pass, above those alive before it, in MB. */
    const peakAbove = async (forward: () => SsdOutput) => {
      const before = tf.memory().numBytes;
      let output: SsdOutput | undefined;
      const { peakBytes } = await tf.profile(() => void (output = forward()));
      release(output!);
      return (peakBytes - before) / 1e6;
    };
    const ours = await peakAbove(() => faceapi.nets.ssdMobilenetv1.forwardInput(netInput) as unknown as SsdOutput);
    const theirs = await peakAbove(() => faceApiForward(faceapi, netInput));
    tensor.dispose();
    expect({ ours: ours <= 40, theirs: theirs > 100 }).toEqual({ ours: true, theirs: true });
  });
});
