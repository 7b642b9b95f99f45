/**
 * Worker-thread entry: runs the face engine named by workerData (a FaceEngineSpec) off the main thread, so that the several hundred milliseconds
 * of CPU per face never stall the event loop that serves every other request.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createFaceEngineFromSpec, type FaceEngineSpec } from '../engine-spec.js';
import { FaceError } from '../errors.js';
import type { FaceWorkerRequest, FaceWorkerResponse } from './protocol.js';

const engine = createFaceEngineFromSpec((workerData as FaceEngineSpec | undefined) ?? { kind: 'face-api' });
const port = parentPort!;

async function handle(request: FaceWorkerRequest): Promise<FaceWorkerResponse> {
  try {
    if (request.op === 'warmUp') {
      await engine.warmUp();
      return { id: request.id, ok: true };
    }
    if (request.op === 'detect') return { id: request.id, ok: true, detections: await engine.detect(request.image) };
    return { id: request.id, ok: true, embedding: await engine.embed(request.image) };
  } catch (e) {
    return { id: request.id, ok: false, error: { faceError: e instanceof FaceError ? e.code : undefined, message: (e as Error).message } };
  }
}

// One request at a time: the WASM backend is single-threaded anyway, and order keeps memory flat.
let queue = Promise.resolve();
port.on('message', (request: FaceWorkerRequest) => {
  queue = queue.then(async () => port.postMessage(await handle(request)));
});
