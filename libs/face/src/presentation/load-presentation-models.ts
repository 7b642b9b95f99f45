import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { loadFaceApi } from '../face-api/load-face-api.js';

type Tf = typeof import('@tensorflow/tfjs');
export type GraphModel = Awaited<ReturnType<Tf['loadGraphModel']>>;

export interface PresentationModels {
  tf: Tf;
  /** 128x128 RGB in [0, 1] → [n, 1], the probability the face is real (Human's `real`). */
  antispoof: GraphModel;
  /** 32x32 RGB in [0, 1] → [n, 2], softmax; the first value is read as live (Human's `live`). */
  liveness: GraphModel;
}

const require = createRequire(import.meta.url);
let loaded: Promise<PresentationModels> | undefined;

/**
 * The two presentation-attack graph models that `@vladmandic/human` ships in its `models/` folder, run on the tfjs
 * (wasm backend) that face-api already set up: only their files are used, not Human's pipeline. Read from disk
 * once per process; nothing is downloaded.
 */
export function loadPresentationModels(): Promise<PresentationModels> {
  loaded ??= initialise().catch((error: unknown) => {
    loaded = undefined; // a later call may retry
    throw error;
  });
  return loaded;
}

export function presentationModelDirectory(): string {
  // The package exports no package.json; its node entry is dist/human.node.js, beside models/.
  return path.join(path.dirname(require.resolve('@vladmandic/human')), '..', 'models');
}

async function initialise(): Promise<PresentationModels> {
  // face-api's tf is the full tfjs on the wasm backend (load-face-api.ts); sharing it keeps one backend per thread.
  const tf = (await loadFaceApi()).tf as unknown as Tf;
  const directory = presentationModelDirectory();
  const [antispoof, liveness] = await Promise.all([loadGraph(tf, directory, 'antispoof'), loadGraph(tf, directory, 'liveness')]);
  return { tf, antispoof, liveness };
}

interface GraphModelJson {
  modelTopology: object;
  format?: string;
  generatedBy?: string;
  convertedBy?: string;
  signature?: object;
  weightsManifest: Array<{ paths: string[]; weights: Array<{ name: string; shape: number[]; dtype: string }> }>;
}

/** A file IO handler: tfjs's own loaders want fetch (browser) or tfjs-node's file:// handler. */
async function loadGraph(tf: Tf, directory: string, name: string): Promise<GraphModel> {
  const json = JSON.parse(await readFile(path.join(directory, `${name}.json`), 'utf8')) as GraphModelJson;
  const weightSpecs = json.weightsManifest.flatMap((group) => group.weights);
  const shards = await Promise.all(json.weightsManifest.flatMap((group) => group.paths).map((file) => readFile(path.join(directory, file))));
  const buffer = Buffer.concat(shards);
  const weightData = buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength);
  const handler = {
    load: async () => ({
      modelTopology: json.modelTopology,
      format: json.format,
      generatedBy: json.generatedBy,
      convertedBy: json.convertedBy,
      signature: json.signature,
      weightSpecs: weightSpecs as never,
      weightData,
    }),
  };
  return tf.loadGraphModel(handler);
}
