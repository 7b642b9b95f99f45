import { appDisplayText } from '../../../broker/spi/request/app-display-text.js';
import type { SessionRequirements } from '../session/verification-session.entity.js';
import type { FaceFrame } from '../verification/face-verification.service.js';
import { LIVENESS_RULES } from '../verification/liveness-rules.js';
import { livenessChallengeMismatch, livenessFramesRefused, unusableChipData } from '../verifier.errors.js';
import type { FaceUploadDto, SessionRequirementsDto } from './dto/app-api.dto.js';

/** What the app uploads, read into what the checks take (each refusal the app API's own error), and back. */
export function b64(value: string): Uint8Array {
  return new Uint8Array(Buffer.from(value, 'base64'));
}

export function dataGroups(input: Record<string, string>): Map<number, Uint8Array> {
  const map = new Map<number, Uint8Array>();
  for (const [key, value] of Object.entries(input)) {
    const n = Number(key);
    if (!Number.isInteger(n) || n < 1 || n > 16) throw unusableChipData(`data_groups key ${key} is not a data group number 1-16`);
    if (typeof value !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(value) || value.length > 700_000)
      throw unusableChipData(`data group ${key} must be Base64`);
    map.set(n, b64(value));
  }
  return map;
}

/**
 * The frames in step order, each naming this challenge: one centre frame (step 0), then a burst of
 * LIVENESS_RULES.minBurstFrames..maxBurstFrames frames for each movement. A frame bound to another challenge is a
 * replay and refused like the wrong challenge_id (409); a malformed sequence is refused unread (400).
 */
export function framesOf(dto: FaceUploadDto, movements: number): FaceFrame[] {
  if (dto.frames.some((f) => f.challenge_id !== dto.challenge_id)) throw livenessChallengeMismatch('every frame must carry the challenge_id it answers');
  const counts = new Array<number>(movements + 1).fill(0);
  let step = 0;
  for (const f of dto.frames) {
    if (f.step < step || f.step > movements) throw livenessFramesRefused(`frames must come in step order 0..${movements}`);
    step = f.step;
    counts[step]++;
  }
  if (counts[0] !== 1) throw livenessFramesRefused('step 0 is one frame facing the camera');
  const { minBurstFrames: min, maxBurstFrames: max } = LIVENESS_RULES;
  for (let i = 1; i <= movements; i++)
    if (counts[i] < min || counts[i] > max) throw livenessFramesRefused(`step ${i} needs a burst of ${min}-${max} frames, got ${counts[i]}`);
  return dto.frames.map((f) => ({ step: f.step, image: b64(f.image) }));
}

export function requirementsDto(r: SessionRequirements): SessionRequirementsDto {
  return {
    document_kinds: r.documentKinds,
    show_document_list: r.showDocumentList,
    // What the merchant wrote, as the app may show it: never HTML (app-display-text.ts).
    ...(r.bindingText ? { binding_message: appDisplayText(r.bindingText) } : {}),
    ...(r.transactionText
      ? { transaction_text: { type: r.transactionText.type, content: appDisplayText(r.transactionText.content, r.transactionText.type) } }
      : {}),
  };
}
