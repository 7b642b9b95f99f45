import type { FaceEngine } from './face-engine.js';
import { selectSingleFace } from './select-single-face.js';
import type { FaceAnalysis, FaceAnalysisOptions, FaceImageInput } from './types.js';

/**
 * `engine.analyseFace` where the engine has it; otherwise embed() (or detect() and the single-face rule when no
 * embedding is asked for), timed as a whole under `detect`.
 */
export async function analyseFace(engine: FaceEngine, image: FaceImageInput, options: FaceAnalysisOptions = {}): Promise<FaceAnalysis> {
  if (engine.analyseFace) return engine.analyseFace(image, options);
  const start = performance.now();
  if (options.descriptor) {
    const { embedding, detection } = await engine.embed(image);
    return { detection, embedding, padding: 0, ms: { detect: performance.now() - start, embed: 0 } };
  }
  const detection = selectSingleFace(await engine.detect(image), (d) => d, 0.25);
  return { detection, padding: 0, ms: { detect: performance.now() - start, embed: 0 } };
}
