/**
 * Worker entry: runs the face engine named by its FaceEngineSpec off the main thread, so that the several hundred
 * milliseconds of CPU per face never stall the event loop that serves every other request. Decoding and scaling
 * frames happens here too, straight to the analysis size (a 12 MP JPEG to 1000x750 in the DCT domain, about a
 * second). It runs as a worker thread (the spec in workerData) or as a child process (the spec as its argument, the
 * messages over its IPC channel; face-runner.ts says which engines and why).
 */
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData, type TransferListItem } from 'node:worker_threads';
import { createFaceEngineFromSpec, type FaceEngineSpec } from '../engine-spec.js';
import { FaceError } from '../errors.js';
import { analyseFace } from '../face-analysis.js';
import { toInputCoordinates } from '../detection-coordinates.js';
import { decodeImageToFit, toAnalysisImage } from '../image/decode-image.js';
import { MAX_ANALYSIS_SIDE } from '../image/decode-limits.js';
import { measureFaceQuality } from '../quality/face-quality.js';
import { frameSignature } from '../quality/frame-signature.js';
import type { RgbImage } from '../types.js';
import type { FaceWorkerRequest, FaceWorkerResponse } from './protocol.js';

interface Port {
  on(event: 'message', listener: (request: FaceWorkerRequest) => void): unknown;
  postMessage(response: FaceWorkerResponse, transfer?: TransferListItem[]): void;
}

/** A child process answers over its IPC channel; what it hands back is copied (there is nothing to transfer). */
function processPort(): Port {
  // Its parent gone (ended, or killed without a word), the process has no one to answer: it ends too.
  process.once('disconnect', () => process.exit(0));
  return { on: (event, listener) => process.on(event, listener), postMessage: (response) => process.send!(response) };
}

const spec = (parentPort ? workerData : JSON.parse(process.argv[2] ?? 'null')) as FaceEngineSpec | null;
const engine = createFaceEngineFromSpec(spec ?? { kind: 'face-api' });
const port: Port = parentPort ?? processPort();

async function handle(request: FaceWorkerRequest): Promise<[FaceWorkerResponse, TransferListItem[]?]> {
  try {
    switch (request.op) {
      case 'warmUp':
        await engine.warmUp();
        return [{ id: request.id, ok: true }];
      case 'detect':
        return [{ id: request.id, ok: true, detections: await engine.detect(request.image) }];
      case 'embed':
        return [{ id: request.id, ok: true, embedding: await engine.embed(request.image) }];
      case 'prepare': {
        const start = performance.now();
        const image = ownBuffer((await decodeImageToFit(request.image, MAX_ANALYSIS_SIDE)).image);
        const decoded = performance.now();
        const padding = request.framing && engine.framing ? await engine.framing(image) : undefined;
        const ms = { decode: decoded - start, ...(padding !== undefined && { framing: performance.now() - decoded }) };
        const prepared = { image, signature: frameSignature(image), ms, ...(padding !== undefined && { padding }) };
        // The pixels move to the caller without a copy: this thread keeps nothing between calls.
        return [{ id: request.id, ok: true, prepared }, [image.data.buffer as ArrayBuffer]];
      }
      case 'analyse': {
        // Encoded bytes (a chip photo) are decoded straight to the analysis size, never in full; the detection is
        // answered in the input's coordinates.
        const { image, scaleX, scaleY } = await toAnalysisImage(request.image, MAX_ANALYSIS_SIDE);
        const analysis = await analyseFace(engine, image, request.options);
        const start = performance.now();
        // Measured on the pixels the face was found in, so box and crop agree.
        const quality = request.options.quality ? measureFaceQuality(image, analysis.detection.box) : undefined;
        const detection = toInputCoordinates(analysis.detection, scaleX, scaleY);
        return [{ id: request.id, ok: true, analysis: { ...analysis, detection, quality, ms: { ...analysis.ms, quality: performance.now() - start } } }];
      }
    }
  } catch (e) {
    return [{ id: request.id, ok: false, error: { faceError: e instanceof FaceError ? e.code : undefined, message: (e as Error).message } }];
  }
}

/** The image with pixels in an ArrayBuffer of its own (decoders may return views into a shared pool), so it can be transferred. */
function ownBuffer(image: RgbImage): RgbImage {
  const { data } = image;
  if (data.byteOffset === 0 && data.byteLength === data.buffer.byteLength && data.buffer instanceof ArrayBuffer) return image;
  return { ...image, data: new Uint8Array(data) };
}

/**
 * This thread's memory: its isolate's V8 heap plus external memory, where V8 counts a WebAssembly.Memory (the tfjs
 * WASM heap, which never shrinks). process.memoryUsage().rss would be the whole process's.
 */
function threadHeapBytes(): number {
  const { total_heap_size, external_memory } = getHeapStatistics();
  return total_heap_size + external_memory;
}

// One request at a time: the WASM backend is single-threaded anyway, and order keeps memory flat. The pool
// (WorkerFaceEngine) runs several of these threads for parallel frames.
let queue = Promise.resolve();
port.on('message', (request: FaceWorkerRequest) => {
  queue = queue.then(async () => {
    const [response, transfer] = await handle(request);
    port.postMessage({ ...response, heapBytes: threadHeapBytes() }, transfer);
  });
});
