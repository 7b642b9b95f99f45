import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import {
  FaceError,
  readDecodableHeader,
  type MatchLevelTable,
  judgeFaceQuality,
  type FaceQualityCode,
  signatureDistance,
  type FrameSignature,
  type FrameAnalysis,
  type PreparedFrame,
  type WorkerFaceEngine,
} from '@identity-broker/face';
import { logger } from '../../../common/logging/logger.js';
import { recordStep, timedStep } from '../app-api/server-timing.interceptor.js';
import { captureRetry, unusableFaceData } from '../verifier.errors.js';
import { EXPLANATION, type Explanation } from '../../../broker/spi/document-evidence/explanations.js';
import { FACE_ENGINE, MATCH_LEVELS } from './face-engine.provider.js';
import { FaceWorkQueue } from './face-work-queue.js';
import { judgeLiveness, type Direction } from './liveness-rules.js';
import { activeMargin, judgePresentation, type PresentationRecord } from './presentation-rules.js';

export interface FaceFrame {
  /** 0 = the centre frame; 1..n = the burst answering directions[step - 1]. */
  step: number;
  image: Uint8Array;
}

export interface FaceOutcome {
  facematchLevel: number;
  livenessPassed: boolean;
  explanations: Explanation[];
  problems: string[];
  /** The frame used as the selfie (the one facing the camera). */
  selfie: Uint8Array;
  selfieEmbedding: number[];
  /** Passive presentation-attack scores of the analysed frames (numbers only, for support; presentation-rules.ts). */
  presentation?: PresentationRecord;
}

/**
 * Signature distances (frame-signature.ts) below which two frames are the same picture or mirror images.
 * Measured on the 40 face-api.js fixture crops: a JPEG re-encode (q 80) of a frame is at most 0.012 from it (0.14
 * when also brightened by 20%, highlights clipping), a re-encoded mirror image at most 0.146 from the mirrored
 * original; two different photos of one person are at least 0.64 apart (0.66 mirrored), a frame and itself mirrored
 * at least 0.68, a rotation by 8° or a 50% blend with the next photo at least 0.30. Real consecutive camera frames of
 * a moving head differ more than re-encodes.
 */
const SAME_PICTURE = 0.2;
const MIRRORED_PICTURE = 0.25;

/** Face match (DG2 photo against the centre frame, spec 2.2 levels) and active liveness (the bursts answer the challenge). */
@Injectable()
export class FaceVerificationService {
  /** Failures to acquire by reason since start (ISO/IEC 19795-1 FTA, counted apart from false rejections). */
  readonly failuresToAcquire = new Map<FaceQualityCode, number>();

  constructor(
    @Inject(FACE_ENGINE) private readonly engine: WorkerFaceEngine,
    @Inject(MATCH_LEVELS) private readonly levels: MatchLevelTable,
    private readonly queue: FaceWorkQueue,
  ) {}

  /**
   * Every frame's header is judged before any frame is decoded (readDecodableHeader: format, size, process, depth,
   * components; 422 naming the frame, no slot taken): frames are decoded side by side in the pool, so a frame
   * refused only by its decoder would come after the others, a 12 MP one among them, had been decoded for nothing.
   * The work then waits for a slot of the instance's face queue (full: 503 with Retry-After). `claim` runs once the
   * slot is held and every frame decoded, before any face work (it spends the challenge), so a 503 or an
   * undecodable frame (422) leaves the challenge usable.
   * A centre frame that cannot be used (blurred, dark, small, off-pose, several faces) throws a capture retry.
   */
  async evaluate(document: () => Promise<Float32Array>, directions: Direction[], frames: FaceFrame[], claim: () => Promise<void>): Promise<FaceOutcome> {
    for (const [i, frame] of frames.entries()) {
      try {
        readDecodableHeader(frame.image);
      } catch (e) {
        if (e instanceof FaceError) throw unusableFaceData(`frame ${i + 1}: ${e.message}`);
        throw e;
      }
    }
    return this.queue.run(() => this.evaluateNow(document, directions, frames, claim));
  }

  private async evaluateNow(
    document: () => Promise<Float32Array>,
    directions: Direction[],
    frames: FaceFrame[],
    claim: () => Promise<void>,
  ): Promise<FaceOutcome> {
    // Decoded and scaled once, in the worker pool (a 12 MP frame takes a second to decode: never on the event
    // loop), frames in parallel; the engine then works on these pixels, so boxes match.
    const prepared = await timedStep('face-decode', () => this.prepareAll(frames));
    // worker-* entries: time inside the worker threads summed over frames that ran in parallel (bench:verify
    // shows them apart from the wall-clock face-* phases, which add up to the request's time).
    recordStep('worker-decode', sum(prepared.map((p) => p.ms.decode + (p.ms.framing ?? 0))));
    await claim();
    const label = (i: number) => `frame ${i + 1} (step ${frames[i].step})`;
    const stills = findStills(
      frames,
      prepared.map((p) => p.signature),
      label,
    );

    // Everything at once across the pool: the selfie (accurate detector: it is matched), the chip photo's
    // template unless the chip step computed it already (document-face-templates.ts), and every burst frame by
    // the fast detector with a plain descriptor (burst faces are followed and compared with each other, never
    // matched to the chip photo). A still picture already fails liveness: its bursts cost no face work.
    const bursts = stills.length === 0 ? prepared.slice(1) : [];
    const padding = prepared[0].padding;
    const [centreRun, documentRun, ...burstRuns] = await timedStep('face-analysis', () =>
      Promise.allSettled<FrameAnalysis | Float32Array>([
        this.engine.analyseFrame(prepared[0].image, { descriptor: true, quality: true, padding }),
        document(),
        ...bursts.map((p) => this.engine.analyseFrame(p.image, { descriptor: true, padding, detector: 'fast', mirror: false })),
      ]),
    );
    const centre = this.usableCentre(centreRun as PromiseSettledResult<FrameAnalysis>);
    if (documentRun.status === 'rejected') {
      // The chip photo cannot change: no usable face in it is a fail, not a retry.
      if (documentRun.reason instanceof FaceError)
        return this.outcome(frames[0].image, centre, 0, [EXPLANATION.NO_FACE], [`document photo: ${documentRun.reason.message}`]);
      throw documentRun.reason;
    }
    const level = this.levels.level(this.engine.similarity(documentRun.value as Float32Array, centre.embedding!));

    const embedded: FrameAnalysis[] = [centre];
    const problems: string[] = [];
    for (const [k, run] of (burstRuns as PromiseSettledResult<FrameAnalysis>[]).entries()) {
      if (run.status === 'fulfilled') embedded.push(run.value);
      else if (!(run.reason instanceof FaceError)) throw run.reason;
      else {
        problems.push(`${label(k + 1)}: ${run.reason.code === 'NO_FACE' ? 'no face found' : run.reason.message}`);
        break;
      }
    }
    recordStep('worker-detect', sum(embedded.map((e) => e.ms.detect)));
    recordStep('worker-embed', sum(embedded.map((e) => e.ms.embed)));
    return timedStep('face-judge', () => {
      const explanations: Explanation[] = [];
      let margin: number | undefined;
      if (problems.length === 0) {
        const active = this.judge(directions, frames, embedded, stills, label);
        problems.push(...active.problems);
        margin = active.margin;
      } else problems.push(...stills.map((s) => `still picture: ${s}`));
      // Passive scores count with the active evidence (margin), never alone at a blind 0.5: presentation-rules.ts.
      const passive = judgePresentation(embedded, margin);
      problems.push(...passive.problems);
      if (problems.length > 0) explanations.push(EXPLANATION.LIVENESS);
      if (level === 0) explanations.push(EXPLANATION.FACE_MATCH);
      logger.info(
        { event: 'face_presentation', score: passive.record.score, activeMargin: passive.record.activeMargin, passed: passive.passed },
        'passive presentation scores',
      );
      return { ...this.outcome(frames[0].image, centre, level, explanations, problems), presentation: passive.record };
    });
  }

  /** Every frame decoded in the pool; the first undecodable one, in frame order, is a 422 naming it. */
  private async prepareAll(frames: FaceFrame[]): Promise<PreparedFrame[]> {
    // The centre frame also gets the engine's framing advice, which every frame of the capture then follows.
    const runs = await Promise.allSettled(frames.map((frame, i) => this.engine.prepareFrame(frame.image, { framing: i === 0 })));
    return runs.map((run, i) => {
      if (run.status === 'fulfilled') return run.value;
      if (run.reason instanceof FaceError) throw unusableFaceData(`frame ${i + 1}: ${run.reason.message}`);
      throw run.reason;
    });
  }

  /**
   * Liveness problems of frames that all show a face: identity across every pair, then the movements; and how far
   * the weakest movement went past its target (the active evidence the passive scores are weighed with).
   */
  private judge(
    directions: Direction[],
    frames: FaceFrame[],
    embedded: FrameAnalysis[],
    stills: string[],
    label: (i: number) => string,
  ): { problems: string[]; margin: number } {
    const lowest = this.levels.threshold(1);
    const sameFace = (score: number) => this.levels.level(score) >= 1 || score === lowest;
    const otherFaces: string[] = [];
    // Every pair, not only against the first frame: a swap to another face mid-sequence shows between any two.
    for (let i = 0; i < embedded.length; i++)
      for (let j = i + 1; j < embedded.length; j++)
        if (!sameFace(this.engine.similarity(embedded[i].embedding!, embedded[j].embedding!))) otherFaces.push(`${label(i)} and ${label(j)}`);
    const centre = embedded[0].detection.pose;
    const bursts = directions.map((_, d) => embedded.filter((_, i) => frames[i].step === d + 1).map((e) => e.detection.pose));
    const { problems } = judgeLiveness({ directions, centre, bursts, otherFaces: otherFaces.slice(0, 5), stills });
    return { problems, margin: activeMargin(directions, centre, bursts) };
  }

  /** The centre frame is the selfie: it must be usable before anything is matched, else the app captures again. */
  private usableCentre(run: PromiseSettledResult<FrameAnalysis>): FrameAnalysis {
    if (run.status === 'rejected') {
      const e = run.reason as unknown;
      if (e instanceof FaceError && (e.code === 'NO_FACE' || e.code === 'MULTIPLE_FACES')) {
        throw this.failureToAcquire(e.code === 'NO_FACE' ? 'FACE_NOT_FOUND' : 'MULTIPLE_FACES');
      }
      throw e;
    }
    const code = judgeFaceQuality(run.value.quality!, run.value.detection.pose);
    if (code) throw this.failureToAcquire(code);
    return run.value;
  }

  private failureToAcquire(code: FaceQualityCode) {
    this.failuresToAcquire.set(code, (this.failuresToAcquire.get(code) ?? 0) + 1);
    // A log field per event, so FTA can be counted apart from FRR (ISO/IEC 19795-1) across instances.
    logger.info({ event: 'face_failure_to_acquire', reason: code }, 'face capture refused before matching');
    return captureRetry(code);
  }

  private outcome(selfie: Uint8Array, centre: FrameAnalysis, level: number, explanations: Explanation[], problems: string[]): FaceOutcome {
    return {
      facematchLevel: level,
      livenessPassed: !explanations.includes(EXPLANATION.LIVENESS) && !explanations.includes(EXPLANATION.NO_FACE),
      explanations,
      problems,
      selfie,
      selfieEmbedding: [...centre.embedding!],
    };
  }
}

/** Pairs of frames that are one picture sent twice (same bytes, or re-encoded) or a mirror image of another. */
function findStills(frames: FaceFrame[], signatures: FrameSignature[], label: (i: number) => string): string[] {
  const found: string[] = [];
  const digests = frames.map((f) => createHash('sha256').update(f.image).digest('hex'));
  for (let i = 0; i < frames.length && found.length < 5; i++) {
    for (let j = i + 1; j < frames.length && found.length < 5; j++) {
      if (digests[i] === digests[j] || signatureDistance(signatures[i], signatures[j]) < SAME_PICTURE) found.push(`${label(j)} repeats ${label(i)}`);
      else if (signatureDistance(signatures[i], signatures[j], true) < MIRRORED_PICTURE) found.push(`${label(j)} is the mirror image of ${label(i)}`);
    }
  }
  return found;
}

const sum = (values: number[]) => values.reduce((a, v) => a + v, 0);
