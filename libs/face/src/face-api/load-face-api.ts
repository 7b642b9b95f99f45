import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { useLeanSsdForward } from './ssd-forward.js';
import { useLeanTinyForward } from './tiny-forward.js';

export type FaceApi = typeof import('@vladmandic/face-api/dist/face-api.node-wasm.js');
/** face-api's typings expose a subset of tfjs; at run time its `tf` is the full tfjs plus the wasm backend. */
export type FullTf = typeof import('@tensorflow/tfjs') & Pick<typeof import('@tensorflow/tfjs-backend-wasm'), 'setWasmPaths'>;

const require = createRequire(import.meta.url);
let loaded: Promise<FaceApi> | undefined;

/**
 * Loads face-api on the tfjs wasm backend and its networks (SSD MobileNet v1 detector, the Tiny Face Detector for
 * burst frames, 68-point landmarks, ResNet-34 recogniser) from the weights shipped inside the npm package.
 * Runs once per process; concurrent callers share the same promise. No network access.
 */
export function loadFaceApi(): Promise<FaceApi> {
  loaded ??= initialise().catch((error: unknown) => {
    loaded = undefined; // let a later call retry instead of caching the failure forever
    throw error;
  });
  return loaded;
}

async function initialise(): Promise<FaceApi> {
  // The node-wasm build bundles face-api against the installed @tensorflow/tfjs + wasm backend.
  const faceapi = require('@vladmandic/face-api/dist/face-api.node-wasm.js') as FaceApi;
  const tf = faceapi.tf as unknown as FullTf;
  const wasmDirectory = path.join(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist');
  tf.setWasmPaths(wasmDirectory + path.sep);
  await tf.setBackend('wasm');
  await tf.ready();

  const modelDirectory = path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'model');
  await Promise.all([
    loadNet(faceapi, faceapi.nets.ssdMobilenetv1, modelDirectory, 'ssd_mobilenetv1_model'),
    loadNet(faceapi, faceapi.nets.tinyFaceDetector, modelDirectory, 'tiny_face_detector_model'),
    loadNet(faceapi, faceapi.nets.faceLandmark68Net, modelDirectory, 'face_landmark_68_model'),
    loadNet(faceapi, faceapi.nets.faceRecognitionNet, modelDirectory, 'face_recognition_model'),
  ]);
  // The detectors' forward passes without holding every layer at once (a WASM heap keeps its high-water mark).
  useLeanSsdForward(faceapi);
  useLeanTinyForward(faceapi);
  return faceapi;
}

interface LoadableNet {
  loadFromWeightMap(weightMap: Record<string, unknown>): void;
}

/** Reads a tfjs weights manifest and its shards from disk (face-api's own loader expects fetch or tfjs-node). */
async function loadNet(faceapi: FaceApi, net: LoadableNet, directory: string, modelName: string): Promise<void> {
  const manifest = JSON.parse(await readFile(path.join(directory, `${modelName}-weights_manifest.json`), 'utf8')) as Array<{
    paths: string[];
    weights: Parameters<FaceApi['tf']['io']['decodeWeights']>[1];
  }>;
  const weightMap: Record<string, unknown> = {};
  for (const group of manifest) {
    const shards = await Promise.all(group.paths.map((file) => readFile(path.join(directory, file))));
    const buffer = Buffer.concat(shards);
    const arrayBuffer = buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength);
    Object.assign(weightMap, faceapi.tf.io.decodeWeights(arrayBuffer, group.weights));
  }
  net.loadFromWeightMap(weightMap);
}
