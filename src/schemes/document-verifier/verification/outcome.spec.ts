import type { ChipEvidence } from './chip-verification.service.js';
import type { FaceOutcome } from './face-verification.service.js';
import { decideVerdict } from './outcome.js';

const chip = (over: Partial<ChipEvidence> = {}): ChipEvidence => ({
  holder: {} as ChipEvidence['holder'],
  documentKind: 'P',
  facePhoto: '',
  facePhotoType: 'JPEG',
  explanations: [],
  passiveAuthentication: true,
  cloneDetection: 'active-authentication',
  cloneDetectionPassed: true,
  specimen: false,
  failures: [],
  crl: { code: 'CRL_CURRENT', refused: false },
  warnings: [],
  ...over,
});
const face = (over: Partial<FaceOutcome> = {}): FaceOutcome => ({
  facematchLevel: 8,
  livenessPassed: true,
  explanations: [],
  problems: [],
  selfie: new Uint8Array(),
  selfieEmbedding: [],
  ...over,
});

describe('verification verdict', () => {
  it('passes with eIDAS high when asked and every check holds at the minimum level', () => {
    expect(decideVerdict(chip(), face(), true, 7)).toEqual({ result: 'pass', explanations: [], eidasHigh: true });
    expect(decideVerdict(chip(), face({ facematchLevel: 7 }), true, 7).eidasHigh).toBe(true);
  });

  it('never gives eIDAS high unasked, below the level, without clone detection or without liveness', () => {
    expect(decideVerdict(chip(), face(), false, 7).eidasHigh).toBe(false);
    expect(decideVerdict(chip(), face({ facematchLevel: 6 }), true, 7)).toEqual({ result: 'pass', explanations: [], eidasHigh: false });
    expect(decideVerdict(chip({ cloneDetection: 'none', cloneDetectionPassed: false }), face(), true, 7).eidasHigh).toBe(false);
    expect(decideVerdict(chip(), face({ livenessPassed: false, explanations: ['STATUS_BAD_LIVENESS'] }), true, 7)).toMatchObject({
      result: 'fail',
      eidasHigh: false,
    });
  });

  it('fails with every reason, once each', () => {
    const verdict = decideVerdict(
      chip({ explanations: ['STATUS_BAD_DOCUMENTHASHES', 'STATUS_BAD_CLONEDETECTION'], passiveAuthentication: false }),
      face({ facematchLevel: 0, explanations: ['STATUS_BAD_FACEMATCH', 'STATUS_BAD_DOCUMENTHASHES' as never] }),
      true,
      7,
    );
    expect(verdict).toEqual({
      result: 'fail',
      explanations: ['STATUS_BAD_DOCUMENTHASHES', 'STATUS_BAD_CLONEDETECTION', 'STATUS_BAD_FACEMATCH'],
      eidasHigh: false,
    });
  });
});
