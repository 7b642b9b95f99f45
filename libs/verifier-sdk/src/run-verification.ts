import type { ChipData, FaceFrame, Outcome, Pose } from './types.js';
import type { VerifierClient } from './verifier-client.js';

/** What the phone contributes: reading the chip (answering the AA challenge) and capturing the poses asked for. */
export interface PhoneSide {
  readChip(activeAuthChallenge: Uint8Array): Promise<ChipData>;
  captureFrames(sequence: Pose[]): Promise<FaceFrame[]>;
}

/** One whole session, in the order the server enforces: open, AA challenge, chip, liveness challenge, face (skipped when the chip failed). */
export async function runVerification(client: VerifierClient, qrToken: string, phone: PhoneSide): Promise<Outcome> {
  await client.open(qrToken);
  const challenge = await client.activeAuthChallenge();
  const chip = await client.uploadChip(await phone.readChip(challenge));
  // A chip that failed completes the session as fail: there is no face step to do.
  if (chip.next === 'outcome') return client.outcome();
  const liveness = await client.livenessChallenge();
  return client.uploadFace(liveness.challenge_id, await phone.captureFrames(liveness.sequence));
}
