// Runs the service's face engines once each, in worker threads as the service does: face-api on the tfjs wasm
// backend with the presentation-attack models, both detectors and the recogniser, then an ONNX model on
// onnxruntime-node when one is given. Under `strace -f -e trace=openat` it shows which files of the face packages
// the service opens (scripts/image/prune-list.txt keeps those); run in the built image, that what was pruned is not
// needed (docs/deployment.md "What the image leaves out").
//
//   node --import tsx scripts/image/exercise-face.mjs <faces folder> [model.onnx]    # from the sources
//   node dist/exercise-face.mjs <faces folder> [model.onnx]                           # in the image
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WorkerFaceEngine } from '@identity-broker/face';

const [faces, onnxModel] = process.argv.slice(2);
if (!faces) throw new Error('usage: exercise-face.mjs <faces folder> [model.onnx]');
const photo = new Uint8Array(readFileSync(join(faces, 'howard-document.jpg')));
const frame = new Uint8Array(readFileSync(join(faces, 'howard-center.png')));

const specs = [{ kind: 'face-api' }, ...(onnxModel ? [{ kind: 'onnx', modelPath: onnxModel }] : [])];
for (const spec of specs) {
  const engine = new WorkerFaceEngine(spec, { workers: 1 });
  try {
    await engine.warmUp();
    const { embedding, presentation } = await engine.embed(photo);
    const fast = await engine.analyseFrame(frame, { detector: 'fast', descriptor: true });
    console.log(
      `${engine.name}: ${embedding.length}-d embedding, presentation ${presentation ? 'scored' : 'none'}, fast detector score ${fast.detection.score.toFixed(2)}`,
    );
  } finally {
    await engine.terminate();
  }
}
