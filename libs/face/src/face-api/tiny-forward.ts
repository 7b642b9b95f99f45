import type { Tensor1D, Tensor4D } from '@tensorflow/tfjs';
import type { FaceApi, FullTf } from './load-face-api.js';
import { chain } from './tensor-chain.js';

type TinyNet = FaceApi['nets']['tinyFaceDetector'];
type NetInput = Parameters<TinyNet['forwardInput']>[0];

/** The weights of the Tiny Face Detector as face-api loads them (its typings declare their own tfjs). */
interface ConvWeights {
  filters: Tensor4D;
  bias: Tensor1D;
}
interface SeparableConvWeights {
  depthwise_filter: Tensor4D;
  pointwise_filter: Tensor4D;
  bias: Tensor1D;
}
interface TinyWeights {
  conv0: ConvWeights;
  conv1: SeparableConvWeights;
  conv2: SeparableConvWeights;
  conv3: SeparableConvWeights;
  conv4: SeparableConvWeights;
  conv5: SeparableConvWeights;
  conv8: ConvWeights;
}

/** The detector's per-channel mean (face-api's TinyFaceDetector config), subtracted before scaling by 1/255. */
const MEAN_RGB = [117.001, 114.697, 97.404];
/** The leaky ReLU's slope as face-api writes it (0.1 as a float32 value). */
const LEAKY_SLOPE = 0.10000000149011612;

/**
 * Makes face-api's Tiny Face Detector run its forward pass here (tinyForward) instead of its own. The input, the box
 * decoding and non-maximum suppression stay face-api's.
 */
export function useLeanTinyForward(faceapi: FaceApi): void {
  const net = faceapi.nets.tinyFaceDetector;
  const tf = faceapi.tf as unknown as FullTf;
  Object.defineProperty(net, 'forwardInput', {
    value: (input: NetInput, inputSize: number) => tinyForward(tf, net.params as unknown as TinyWeights, input, inputSize),
  });
}

/**
 * The Tiny Face Detector's forward pass (face-api's `TinyYolov2.forwardInput` with separable convolutions, as its
 * installed node-wasm build runs it): the same operations in the same order, so the same output to the bit
 * (tiny-forward.spec.ts), but each intermediate is freed as soon as the next tensor exists. face-api keeps every
 * leaky ReLU's four tensors until its layer ends, and every layer's output until the pass ends: 38 MB above the
 * weights at once for the 320x320 input the burst frames and the framing probe use, in a thread's WASM heap that never
 * gives memory back. Here the first layer's leaky ReLU, three tensors of 318x318x16, is the peak.
 */
function tinyForward(tf: FullTf, weights: TinyWeights, input: NetInput, inputSize: number): Tensor4D {
  return tf.tidy(() => {
    const batch = tf.cast(input.toBatchTensor(inputSize, false) as unknown as Tensor4D, 'float32');
    let x = chain(
      batch,
      true,
      (t) => subtractMean(tf, t),
      (t) => tf.div(t, 255),
    );
    x = leaky(
      tf,
      chain(
        x,
        true,
        (t) => tf.conv2d(t, weights.conv0.filters, [1, 1], 'valid'),
        (t) => tf.add(t, weights.conv0.bias),
      ),
    );
    for (const layer of ['conv1', 'conv2', 'conv3', 'conv4', 'conv5'] as const) {
      x = chain(x, true, (t) => tf.maxPool(t, [2, 2], [2, 2], 'same'));
      x = separable(tf, x, weights[layer]);
    }
    x = chain(x, true, (t) => tf.maxPool(t, [2, 2], [1, 1], 'same'));
    return chain(
      x,
      true,
      (t) => tf.conv2d(t, weights.conv8.filters, [1, 1], 'valid'),
      (t) => tf.add(t, weights.conv8.bias),
    );
  });
}

/** face-api's `normalize`: the channel means as a tensor of the batch's shape, subtracted. */
function subtractMean(tf: FullTf, x: Tensor4D): Tensor4D {
  const shape = [...x.shape.slice(0, 3), 1];
  const channels = MEAN_RGB.map((mean) => tf.fill(shape, mean, 'float32'));
  const means = tf.concat(channels, 3);
  channels.forEach((t) => t.dispose());
  const out = tf.sub<Tensor4D>(x, means);
  means.dispose();
  return out;
}

/** A padded depthwise-separable convolution with bias and leaky ReLU (face-api's `depthwiseSeparableConv`); frees `x`. */
function separable(tf: FullTf, x: Tensor4D, w: SeparableConvWeights): Tensor4D {
  const convolved = chain(
    x,
    true,
    (t) =>
      tf.pad(t, [
        [0, 0],
        [1, 1],
        [1, 1],
        [0, 0],
      ]),
    (t) => tf.separableConv2d(t, w.depthwise_filter, w.pointwise_filter, [1, 1], 'valid'),
    (t) => tf.add(t, w.bias),
  );
  return leaky(tf, convolved);
}

/** relu(x - 0.1x) + 0.1x, as face-api computes its leaky ReLU, holding at most three tensors; frees `x`. */
function leaky(tf: FullTf, x: Tensor4D): Tensor4D {
  const slope = tf.scalar(LEAKY_SLOPE);
  const scaled = tf.mul(x, slope);
  slope.dispose();
  const difference = tf.sub(x, scaled);
  x.dispose();
  const rectified = tf.relu(difference);
  difference.dispose();
  const out = tf.add<Tensor4D>(rectified, scaled);
  rectified.dispose();
  scaled.dispose();
  return out;
}
