import { parseDg14 } from '@identity-broker/icao9303';
import { VerifierApiError } from './errors.js';
import type { ChipAuthChallenge, ChipData, FaceFrame, LivenessChallenge, Outcome } from './types.js';
import type { VerifierClient } from './verifier-client.js';

/** What the phone contributes: reading the chip (answering the AA challenge), relaying Chip Authentication, capturing the poses asked for. */
export interface PhoneSide {
  readChip(activeAuthChallenge: Uint8Array): Promise<ChipData>;
  /**
   * The key agreement with the server's terminal key over the chip's secure channel (MSE:Set KAT for 3DES CA,
   * MSE:Set AT + GENERAL AUTHENTICATE for AES CA, as the DG14 protocol says), then the protected command as is;
   * returns the chip's response APDU (ICAO 9303-11 §6.2). Without it, a chip that only has Chip Authentication
   * cannot prove it is genuine.
   */
  chipAuthenticate?(challenge: ChipAuthChallenge): Promise<Uint8Array>;
  /**
   * The camera's answer to a liveness challenge: one frame facing the camera (step 0), then for each movement a
   * burst of `burst_frames` frames as the head moves towards it, in capture order, all captured after the challenge
   * and before `expires_at`. `retry` says why the previous capture was refused: `reason` is the code, `message` the
   * words to show the user in the client's language (VerifierClient.acceptLanguage).
   */
  captureFrames(challenge: LivenessChallenge, retry?: CaptureRetry): Promise<FaceFrame[]>;
}

/**
 * Chip Authentication is run when it is the chip's only proof: DG14 holds a chip authentication key and there is
 * no DG15 (Active Authentication, answered in readChip, proves the chip otherwise).
 */
export function needsChipAuthentication(chip: ChipData): boolean {
  const dg14 = chip.dataGroups.get(14);
  if (!dg14 || chip.dataGroups.has(15)) return false;
  try {
    return parseDg14(dg14).chipAuthenticationPublicKeys.length > 0;
  } catch {
    return false; // the server judges an unreadable DG14
  }
}

/** One whole session, in the order the server enforces: open, AA challenge, chip (with CA), liveness challenge, face (skipped when the chip failed). */
export async function runVerification(client: VerifierClient, qrToken: string, phone: PhoneSide): Promise<Outcome> {
  await client.open(qrToken);
  const challenge = await client.activeAuthChallenge();
  const chip = await phone.readChip(challenge);
  if (phone.chipAuthenticate && !chip.chipAuthentication && needsChipAuthentication(chip)) {
    const ca = await client.chipAuthChallenge(chip.dataGroups.get(14)!);
    chip.chipAuthentication = { responseApdu: await phone.chipAuthenticate(ca) };
  }
  const uploaded = await client.uploadChip(chip);
  // A chip that failed completes the session as fail: there is no face step to do.
  if (uploaded.next === 'outcome') return client.outcome();
  // An unusable centre frame (blurred, dark, ...) is a capture retry: a new challenge, a new capture.
  let retry: CaptureRetry | undefined;
  for (let attempt = 1; ; attempt++) {
    const liveness = await client.livenessChallenge();
    try {
      return await client.uploadFace(liveness.challenge_id, await phone.captureFrames(liveness, retry));
    } catch (e) {
      if (!(e instanceof VerifierApiError) || !e.retryReason || attempt >= MAX_CAPTURE_ATTEMPTS) throw e;
      retry = { reason: e.retryReason, message: e.retryMessage ?? e.description };
    }
  }
}

/** Why the server asked for another capture: the reason code and the words for the user. */
export interface CaptureRetry {
  reason: string;
  message: string;
}

/** Captures tried before giving up on a face that stays unusable (the user is told why each time). */
const MAX_CAPTURE_ATTEMPTS = 3;
