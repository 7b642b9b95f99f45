import { FaceError } from '../errors.js';
import type { FaceEngine, SimilarityMetric } from '../face-engine.js';
import { toInputCoordinates } from '../detection-coordinates.js';
import { toAnalysisImage } from '../image/decode-image.js';
import { MAX_ANALYSIS_SIDE } from '../image/decode-limits.js';
import { padImage } from '../image/pad-image.js';
import { loadPresentationModels } from '../presentation/load-presentation-models.js';
import { scorePresentation } from '../presentation/score-presentation.js';
import { estimateHeadPose } from '../pose/estimate-head-pose.js';
import { euclideanDistance } from '../similarity/embedding-distance.js';
import { selectSingleFace } from '../select-single-face.js';
import type { FaceAnalysis, FaceAnalysisOptions, FaceDetection, FaceEmbedding, FaceImageInput, RgbImage } from '../types.js';
import { DetectorFrame } from './detector-frame.js';
import { detectorTensor } from './detector-tensor.js';
import { mirrorAveragedDescriptor, plainDescriptor, type Pass, type PassFace } from './face-descriptor.js';
import { loadFaceApi, type FaceApi } from './load-face-api.js';

type Tensor3D = ReturnType<FaceApi['tf']['tensor3d']>;
type FaceLandmarks68 = InstanceType<FaceApi['FaceLandmarks68']>;
type Rect = InstanceType<FaceApi['Rect']>;

export interface FaceApiEngineOptions {
  /** Minimum SSD detector confidence for a face to count. Default 0.5. */
  minConfidence?: number;
  /**
   * Borders tried around tight crops, in order, as fractions of width/height per side; the first
   * that yields a face wins. Default [0.5, 1]. Padding is applied only when the first pass finds
   * no face or a face filling most of the frame (the detector then lacks the context it was
   * trained with). [] disables padding. On the 150x150 test crops 0.5 suits most faces; 1 finds
   * three more that 0.5 misses (face-api.js crops of penny, raj, sheldon).
   */
  padding?: number[];
  /** A second face at least this fraction of the largest face's area makes embed() fail with MULTIPLE_FACES. Default 0.25. */
  secondaryFaceAreaRatio?: number;
  /** Score presentation attacks on every analysed face (`presentation` of embed() and analyseFace(), about 10 ms a face). Default true. */
  presentation?: boolean;
}

/** A face whose box spans more of the frame than this is treated as a tight crop and re-detected with padding. */
const TIGHT_CROP_FRACTION = 0.6;
/**
 * Input side of the Tiny Face Detector for 'fast' detection: about a sixth of an SSD pass on this machine's wasm
 * backend (SSD always works at 512x512). A phone selfie's face spans a large part of the frame, well within its reach.
 */
const FAST_DETECTOR_INPUT = 320;
/**
 * Tried next when the first finds nothing, before the accurate detector (an SSD pass costs several of these): the
 * Tiny Face Detector's confidence varies with its input size, and a head tilted 20° scored 0.43 at 320 but 0.92 at
 * 224 on the test faces, which sent such burst frames to the SSD.
 */
const FAST_DETECTOR_RETRY_INPUT = 224;
/** SSD MobileNet v1's input side: face-api resizes whatever it is given to this square. */
const SSD_INPUT = 512;

type Detector = NonNullable<FaceAnalysisOptions['detector']>;

/**
 * FaceEngine on @vladmandic/face-api: SSD MobileNet v1 detection, 68-point landmarks and the
 * 128-d ResNet-34 descriptor (dlib-style, trained for euclidean distance; 0.6 is face-api's
 * customary "same person" cut-off, but use the calibrated MatchLevelTable instead).
 */
export class FaceApiEngine implements FaceEngine {
  readonly name = 'face-api-resnet128';
  readonly metric: SimilarityMetric = 'euclidean-distance';
  private readonly minConfidence: number;
  private readonly paddings: number[];
  private readonly secondaryFaceAreaRatio: number;
  private readonly presentation: boolean;

  constructor(options: FaceApiEngineOptions = {}) {
    this.minConfidence = options.minConfidence ?? 0.5;
    this.paddings = options.padding ?? [0.5, 1];
    this.secondaryFaceAreaRatio = options.secondaryFaceAreaRatio ?? 0.25;
    this.presentation = options.presentation ?? true;
  }

  /** Loads the models now rather than on the first request (optional; calls share one load). */
  async warmUp(): Promise<void> {
    await loadFaceApi();
    if (this.presentation) await loadPresentationModels();
  }

  /** All faces, largest first; `padding` is tried first as in analyseFace(). */
  async detect(input: FaceImageInput, padding?: number): Promise<FaceDetection[]> {
    const { image, scaleX, scaleY } = await toAnalysisImage(input, MAX_ANALYSIS_SIDE);
    const { pass } = await this.detectWithPadding(image, padding);
    try {
      return pass.faces.map((face) => toInputCoordinates(face.detection, scaleX, scaleY));
    } finally {
      pass.dispose();
    }
  }

  async embed(input: FaceImageInput): Promise<FaceEmbedding> {
    const { embedding, detection, presentation } = await this.analyseFace(input, { descriptor: true });
    return { embedding: embedding!, detection, ...(presentation && { presentation }) };
  }

  /**
   * Works on the image scaled down to MAX_ANALYSIS_SIDE before any tensor exists (a 12 MP frame as an int32
   * tensor, padded, would need gigabytes; an encoded JPEG is decoded at about that size in the first place), and
   * answers in the input's own pixel coordinates. The descriptor is computed for the selected face only, once the
   * padding is settled: a face refused as one of several, or found again on a padded copy, costs no ResNet pass.
   */
  async analyseFace(input: FaceImageInput, options: FaceAnalysisOptions = {}): Promise<FaceAnalysis> {
    const { image, scaleX, scaleY } = await toAnalysisImage(input, MAX_ANALYSIS_SIDE);
    let start = performance.now();
    const { pass, padding } = await this.detectWithPadding(image, options.padding, options.detector);
    const ms = { detect: performance.now() - start, embed: 0 };
    try {
      const face = selectSingleFace(pass.faces, (f) => f.detection, this.secondaryFaceAreaRatio);
      const detection = toInputCoordinates(face.detection, scaleX, scaleY);
      // Every analysed frame is scored (about 10 ms), on the pixels the detection was made on.
      const presentation = this.presentation && options.presentation !== false ? await scorePresentation(image, face.detection) : undefined;
      if (!options.descriptor) return { detection, padding, ms, ...(presentation && { presentation }) };
      start = performance.now();
      const faceapi = await loadFaceApi();
      const embedding =
        options.mirror === false ? await plainDescriptor(faceapi, pass, face.landmarks) : await mirrorAveragedDescriptor(faceapi, pass, face.landmarks);
      ms.embed = performance.now() - start;
      if (!embedding) throw new FaceError('NO_FACE', 'face found but no descriptor could be computed');
      return { detection, embedding, padding, ms, ...(presentation && { presentation }) };
    } finally {
      pass.dispose();
    }
  }

  similarity(a: Float32Array, b: Float32Array): number {
    return euclideanDistance(a, b);
  }

  /**
   * The image as given, then padded copies while no face is found or the face fills most of the frame. With a
   * `hint` (the padding an earlier frame of the same capture needed) that copy is tried first: frames of one
   * camera are framed alike, so a tight burst frame is detected once instead of twice. The caller disposes the
   * returned pass. The 'fast' detector is tried only at the hinted padding (framing() of the capture's centre
   * frame), at two input sizes: where it finds nothing, the accurate detector and its ladder take over.
   */
  private async detectWithPadding(image: RgbImage, hint: number | undefined, detector: Detector = 'accurate'): Promise<{ pass: Pass; padding: number }> {
    if (detector === 'fast') {
      for (const inputSize of [FAST_DETECTOR_INPUT, FAST_DETECTOR_RETRY_INPUT]) {
        const fast = await this.run(image, hint ?? 0, 'fast', inputSize);
        if (fast.faces.length > 0) return { pass: fast, padding: hint ?? 0 };
        fast.dispose();
      }
    } else if (hint === undefined && this.paddings.length > 0 && (await this.looksTight(image))) {
      // Where the light detector sees no face or one filling the frame (a tight crop: ICAO portraits, the test
      // crops), the accurate pass without padding would find none or a tight one and be redone padded: start
      // padded, the pass the ladder ends with, one SSD pass sooner. Nothing found there: the full ladder follows.
      hint = this.paddings[0];
    }
    if (hint !== undefined && hint > 0) {
      const hinted = await this.run(image, hint);
      if (hinted.faces.length > 0) return { pass: hinted, padding: hint };
      hinted.dispose();
    }
    const first = await this.run(image, 0);
    if (first.faces.length === 0 || isTightCrop(first.faces[0].detection.box, image)) {
      for (const padding of this.paddings) {
        if (padding === hint) continue;
        const padded = await this.run(image, padding);
        if (padded.faces.length > 0) {
          first.dispose();
          return { pass: padded, padding };
        }
        padded.dispose();
      }
    }
    return { pass: first, padding: 0 };
  }

  /**
   * The padding to try first on this capture's frames: the first of the ladder where the light detector sees a
   * tight crop (or nothing), else none. Given as `padding` it spares each frame its own probe, and lets the
   * frames of one capture be analysed in parallel instead of after the centre frame.
   */
  async framing(input: FaceImageInput): Promise<number> {
    const { image } = await toAnalysisImage(input, MAX_ANALYSIS_SIDE);
    return this.paddings.length > 0 && (await this.looksTight(image)) ? this.paddings[0] : 0;
  }

  /** Whether the light detector finds no face on `image` or a largest one filling most of it (no landmarks). */
  private async looksTight(image: RgbImage): Promise<boolean> {
    const faceapi = await loadFaceApi();
    const tensor = detectorTensor(faceapi, image);
    try {
      const found = await faceapi.detectAllFaces(tensor, this.detectorOptions(faceapi, 'fast'));
      const largest = found.map((d) => d.box).sort((a, b) => b.width * b.height - a.width * a.height)[0];
      return largest === undefined || isTightCrop(largest, image);
    } finally {
      tensor.dispose();
    }
  }

  private detectorOptions(faceapi: FaceApi, detector: Detector, inputSize = FAST_DETECTOR_INPUT) {
    return detector === 'fast'
      ? new faceapi.TinyFaceDetectorOptions({ inputSize, scoreThreshold: this.minConfidence })
      : new faceapi.SsdMobilenetv1Options({ minConfidence: this.minConfidence, maxResults: 20 });
  }

  /** Detects on `image` padded by `padding` (0: as is); coordinates are shifted back to `image`. Largest face first. */
  private async run(source: RgbImage, padding: number, detector: Detector = 'accurate', inputSize?: number): Promise<Pass> {
    return detector === 'accurate' ? this.runAccurate(source, padding) : this.runFast(source, padding, inputSize);
  }

  /**
   * SSD on the frame's 512x512 resize, then the landmarks on each face's region of the square, both computed from the
   * image (DetectorFrame): the values face-api's own pipeline reads off the padded square, without the square.
   */
  private async runAccurate(source: RgbImage, padding: number): Promise<Pass> {
    const faceapi = await loadFaceApi();
    const frame = DetectorFrame.padded(source, padding);
    const input = faceapi.tf.tensor3d(frame.resized(SSD_INPUT), [SSD_INPUT, SSD_INPUT, 3], 'float32');
    let found: InstanceType<FaceApi['FaceDetection']>[];
    try {
      found = await faceapi.detectAllFaces(input, this.detectorOptions(faceapi, 'accurate'));
    } finally {
      input.dispose();
    }
    const crop = async (box: Rect) => frameCrop(faceapi, frame, box);
    const results = [];
    for (const inSquare of found.map((d) => d.forSize(frame.side, frame.side))) {
      const face = await crop(inSquare.box);
      if (!face) continue;
      try {
        const landmarks = (await faceapi.nets.faceLandmark68Net.detectLandmarks(face)) as FaceLandmarks68;
        results.push(faceapi.extendWithFaceLandmarks(faceapi.extendWithFaceDetection({}, inSquare), landmarks));
      } finally {
        face.dispose();
      }
    }
    return { faces: passFaces(results, frame.offsetX, frame.offsetY), crop, dispose: () => undefined };
  }

  /** The Tiny Face Detector on the (padded) image as a tensor, face-api's pipeline as it is. */
  private async runFast(source: RgbImage, padding: number, inputSize?: number): Promise<Pass> {
    const { image, offsetX, offsetY } = padding > 0 ? padImage(source, padding) : { image: source, offsetX: 0, offsetY: 0 };
    const faceapi = await loadFaceApi();
    const tensor = detectorTensor(faceapi, image);
    try {
      const results = await faceapi.detectAllFaces(tensor, this.detectorOptions(faceapi, 'fast', inputSize)).withFaceLandmarks();
      const crop = async (box: Rect) => (await faceapi.extractFaceTensors(tensor, [box]))[0];
      return { faces: passFaces(results, offsetX, offsetY), crop, dispose: () => tensor.dispose() };
    } catch (e) {
      tensor.dispose();
      throw e;
    }
  }
}

/** The faces of a pass in the coordinates of the unpadded image, largest first. */
function passFaces(results: { detection: { box: Rect; score: number }; landmarks: FaceLandmarks68 }[], offsetX: number, offsetY: number): PassFace[] {
  const faces = results.map((result): PassFace => {
    const landmarks = result.landmarks.positions.map((p) => ({ x: p.x - offsetX, y: p.y - offsetY }));
    const box = result.detection.box;
    return {
      landmarks: result.landmarks,
      detection: {
        box: { x: box.x - offsetX, y: box.y - offsetY, width: box.width, height: box.height },
        score: result.detection.score,
        landmarks,
        pose: estimateHeadPose(landmarks),
      },
    };
  });
  return faces.sort((a, b) => area(b.detection) - area(a.detection));
}

/** A box's pixels out of the frame's square, clipped and floored as face-api's extractFaceTensors does; undefined when none is left. */
function frameCrop(faceapi: FaceApi, frame: DetectorFrame, box: Rect): Tensor3D | undefined {
  const region = box.clipAtImageBorders(frame.side, frame.side);
  if (!(region.width > 0 && region.height > 0)) return undefined;
  return faceapi.tf.tensor3d(frame.region(region), [region.height, region.width, 3], 'float32');
}

function isTightCrop(box: { width: number; height: number }, image: RgbImage): boolean {
  return box.width > TIGHT_CROP_FRACTION * image.width || box.height > TIGHT_CROP_FRACTION * image.height;
}

function area(detection: FaceDetection): number {
  return detection.box.width * detection.box.height;
}
