import type { Tensor, Tensor1D, Tensor2D, Tensor4D } from '@tensorflow/tfjs';
import type { FaceApi, FullTf } from './load-face-api.js';
import { chain } from './tensor-chain.js';

type SsdNet = InstanceType<FaceApi['SsdMobilenetv1']>;
type NetInput = Parameters<SsdNet['forwardInput']>[0];
type SsdOutput = ReturnType<SsdNet['forwardInput']>;

/** The weights of one layer as face-api loads them (its typings declare their own tfjs, the same tensors at run time). */
interface PointwiseWeights {
  filters: Tensor4D;
  batch_norm_offset: Tensor1D;
}
interface DepthwiseWeights extends PointwiseWeights {
  batch_norm_scale: Tensor1D;
  batch_norm_mean: Tensor1D;
  batch_norm_variance: Tensor1D;
}
interface ConvWeights {
  filters: Tensor4D;
  bias: Tensor1D;
}
interface SsdWeights {
  mobilenetv1: Record<string, PointwiseWeights & { depthwise_conv: DepthwiseWeights; pointwise_conv: PointwiseWeights }>;
  prediction_layer: Record<string, PointwiseWeights & { box_encoding_predictor: ConvWeights; class_predictor: ConvWeights }>;
  output_layer: { extra_dim: Tensor };
}

/** The batch-norm epsilon of face-api's MobileNet v1 (a float32 value written out). */
const BATCH_NORM_EPSILON = 0.0010000000474974513;
/** The backbone layers whose depthwise convolution has stride 2. */
const STRIDE_2_LAYERS = new Set([2, 4, 6, 12]);

/**
 * Makes face-api's SSD MobileNet v1 run its forward pass here (ssdForward) instead of its own. Everything around it
 * (the input, non-maximum suppression, the detections) stays face-api's.
 */
export function useLeanSsdForward(faceapi: FaceApi): void {
  const net = faceapi.nets.ssdMobilenetv1;
  const tf = faceapi.tf as unknown as FullTf;
  Object.defineProperty(net, 'forwardInput', {
    value: (input: NetInput): SsdOutput => ssdForward(tf, net.params as unknown as SsdWeights, input),
  });
}

/**
 * SSD MobileNet v1's forward pass: the operations of face-api's `SsdMobilenetv1.forwardInput` (as its installed
 * node-wasm build runs them) in the same order, so the same boxes and scores to the bit (ssd-forward.spec.ts), with one
 * difference: the backbone frees each layer's input as soon as its output exists. face-api runs all 27 backbone
 * layers inside one `tf.tidy`, which keeps every layer's output until the pass ends: about 120 MB of tensors at once
 * for the 512x512 input, in a thread's WASM heap that never gives memory back. Here the pass holds at most two tensors
 * of the backbone at once (37 MB at its peak). The prediction and output layers work on the small last feature maps
 * and are left to `tf.tidy` as face-api does.
 */
function ssdForward(tf: FullTf, weights: SsdWeights, input: NetInput): SsdOutput {
  const output = tf.tidy(() => {
    const batch = tf.cast(input.toBatchTensor(512, false) as unknown as Tensor4D, 'float32');
    const x = chain(
      batch,
      true,
      (t) => tf.div(t, 127.5),
      (t) => tf.sub(t, 1),
    );
    const { out, conv11 } = backbone(tf, weights.mobilenetv1, x);
    const { boxPredictions, classPredictions } = predictionLayer(tf, weights.prediction_layer, out, conv11);
    const { boxes, scores } = outputLayer(tf, weights.output_layer, boxPredictions, classPredictions);
    return { boxes, scores };
  });
  return output as unknown as SsdOutput;
}

function pointwise(tf: FullTf, x: Tensor4D, w: PointwiseWeights, strides: [number, number], freeInput = false): Tensor4D {
  return chain(
    x,
    freeInput,
    (t) => tf.conv2d(t, w.filters, strides, 'same'),
    (t) => tf.add(t, w.batch_norm_offset),
    (t) => tf.clipByValue(t, 0, 6),
  );
}

function depthwise(tf: FullTf, x: Tensor4D, w: DepthwiseWeights, strides: [number, number], freeInput: boolean): Tensor4D {
  return chain(
    x,
    freeInput,
    (t) => tf.depthwiseConv2d(t, w.filters, strides, 'same'),
    (t) => tf.batchNorm(t, w.batch_norm_mean, w.batch_norm_variance, w.batch_norm_offset, w.batch_norm_scale, BATCH_NORM_EPSILON),
    (t) => tf.clipByValue(t, 0, 6),
  );
}

/** MobileNet v1: conv_0, then 13 depthwise-separable layers; the 11th layer's output feeds a box predictor too. */
function backbone(tf: FullTf, w: SsdWeights['mobilenetv1'], input: Tensor4D): { out: Tensor4D; conv11: Tensor4D } {
  let out = pointwise(tf, input, w.conv_0, [2, 2], true);
  let conv11: Tensor4D | undefined;
  for (let layer = 1; layer <= 13; layer++) {
    const strides: [number, number] = STRIDE_2_LAYERS.has(layer) ? [2, 2] : [1, 1];
    const spread = depthwise(tf, out, w[`conv_${layer}`].depthwise_conv, strides, out !== conv11);
    out = pointwise(tf, spread, w[`conv_${layer}`].pointwise_conv, [1, 1], true);
    if (layer === 11) conv11 = out;
  }
  return { out, conv11: conv11! };
}

/** Eight more pointwise layers and six box predictors (face-api's predictionLayer), on feature maps of 32x32 and less. */
function predictionLayer(tf: FullTf, w: SsdWeights['prediction_layer'], x: Tensor4D, conv11: Tensor4D) {
  const conv: Tensor4D[] = [];
  for (let i = 0; i <= 7; i++) conv.push(pointwise(tf, i === 0 ? x : conv[i - 1], w[`conv_${i}`], i % 2 === 1 ? [2, 2] : [1, 1]));
  const sources = [conv11, x, conv[1], conv[3], conv[5], conv[7]];
  const predictions = sources.map((source, i) => {
    const p = w[`box_predictor_${i}`];
    const batchSize = source.shape[0];
    return {
      box: tf.reshape(convLayer(tf, source, p.box_encoding_predictor), [batchSize, -1, 1, 4]),
      cls: tf.reshape(convLayer(tf, source, p.class_predictor), [batchSize, -1, 3]),
    };
  });
  return {
    boxPredictions: tf.concat(
      predictions.map((p) => p.box),
      1,
    ) as Tensor4D,
    classPredictions: tf.concat(
      predictions.map((p) => p.cls),
      1,
    ),
  };
}

function convLayer(tf: FullTf, x: Tensor4D, w: ConvWeights): Tensor4D {
  return tf.add(tf.conv2d(x, w.filters, [1, 1], 'same'), w.bias);
}

/** The boxes decoded against the anchors (`extra_dim`) and the face scores, per batch entry (face-api's outputLayer). */
function outputLayer(tf: FullTf, w: SsdWeights['output_layer'], boxPredictions: Tensor4D, classPredictions: Tensor) {
  const batchSize = boxPredictions.shape[0];
  const anchors = tf.reshape(tf.tile(w.extra_dim, [batchSize, 1, 1]), [-1, 4]) as Tensor2D;
  const decoded = decodeBoxes(tf, anchors, tf.reshape(boxPredictions, [-1, 4]) as Tensor2D);
  const boxes = tf.reshape(decoded, [batchSize, decoded.shape[0] / batchSize, 4]);
  const scoresAndClasses = tf.sigmoid(tf.slice(classPredictions, [0, 0, 1], [-1, -1, -1]));
  const faceScores = tf.slice(scoresAndClasses, [0, 0, 0], [-1, -1, 1]);
  const scores = tf.reshape(faceScores, [batchSize, faceScores.shape[1]!]);
  return { boxes: tf.unstack(boxes) as Tensor2D[], scores: tf.unstack(scores) as Tensor1D[] };
}

/** Box encodings (ty, tx, th, tw, scaled 10, 10, 5, 5) applied to the anchors' centres and sizes, as [top, left, bottom, right]. */
function decodeBoxes(tf: FullTf, anchors: Tensor2D, encodings: Tensor2D): Tensor2D {
  const a = tf.unstack(tf.transpose(anchors, [1, 0]));
  const sizes = [tf.sub(a[2], a[0]), tf.sub(a[3], a[1])];
  const centres = [tf.add(a[0], tf.div(sizes[0], 2)), tf.add(a[1], tf.div(sizes[1], 2))];
  const e = tf.unstack(tf.transpose(encodings, [1, 0]));
  const halfHeight = tf.div(tf.mul(tf.exp(tf.div(e[2], 5)), sizes[0]), 2);
  const centreY = tf.add(tf.mul(tf.div(e[0], 10), sizes[0]), centres[0]);
  const halfWidth = tf.div(tf.mul(tf.exp(tf.div(e[3], 5)), sizes[1]), 2);
  const centreX = tf.add(tf.mul(tf.div(e[1], 10), sizes[1]), centres[1]);
  const corners = tf.stack([tf.sub(centreY, halfHeight), tf.sub(centreX, halfWidth), tf.add(centreY, halfHeight), tf.add(centreX, halfWidth)]);
  return tf.transpose(corners, [1, 0]) as Tensor2D;
}
