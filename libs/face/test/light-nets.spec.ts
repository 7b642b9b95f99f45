import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeImage, FaceApiEngine, loadLightFaceApi } from '@identity-broker/face';

const face = (name: string) => decodeImage(new Uint8Array(readFileSync(join(import.meta.dirname, '../../../test/fixtures/verifier-faces', name))));

/**
 * A thread that follows burst frames warms up without SSD MobileNet v1 (WorkerFaceEngine gives `accurate: false` to
 * every thread but the first): its weights and first pass would grow a WASM heap that never shrinks. Its own module
 * registry, so nothing else in this file's process loaded SSD first.
 */
describe('face-api warmed up without the accurate detector', () => {
  it('runs the light detector, landmarks and descriptors without SSD, and loads SSD when a pass needs it', async () => {
    const engine = new FaceApiEngine();
    await engine.warmUp({ accurate: false });
    const faceapi = await loadLightFaceApi();
    const loaded = () => ({
      ssd: faceapi.nets.ssdMobilenetv1.isLoaded,
      tiny: faceapi.nets.tinyFaceDetector.isLoaded,
      resnet: faceapi.nets.faceRecognitionNet.isLoaded,
    });
    expect(loaded()).toEqual({ ssd: false, tiny: true, resnet: true });

    const selfie = await face('sheldon-center.png');
    const padding = await engine.framing(selfie);
    const burst = await engine.analyseFace(selfie, { padding, detector: 'fast', descriptor: true, mirror: false });
    expect(burst.embedding).toHaveLength(128);
    expect(loaded().ssd).toBe(false);

    // The accurate detector, asked for, is loaded then and finds the same face (the two detectors draw their boxes
    // differently: their centres agree).
    const accurate = await engine.analyseFace(selfie, { padding, descriptor: true });
    expect(loaded().ssd).toBe(true);
    const centre = ({ box }: typeof accurate.detection) => [box.x + box.width / 2, box.y + box.height / 2];
    const [a, b] = [centre(accurate.detection), centre(burst.detection)];
    expect(Math.hypot(a[0] - b[0], a[1] - b[1])).toBeLessThan(selfie.width * 0.15);
    expect(accurate.embedding).toHaveLength(128);
  }, 60_000);
});
