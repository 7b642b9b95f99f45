/** The app API's messages as the SDK sees them (mirrors the server's DTOs; snake_case on the wire). */
export type DocumentKind = 'I' | 'P' | 'D' | 'V';
/** Head movements of a liveness challenge: turn to the user's own left/right, tilt towards the left/right shoulder. */
export type Direction = 'left' | 'right' | 'tilt_left' | 'tilt_right';
/** A challenge step: 'center' (step 0, one frame facing the camera) or a movement answered by a burst. */
export type LivenessStep = 'center' | Direction;
export type SessionState = 'created' | 'opened' | 'chip_received' | 'face_received' | 'completed' | 'cancelled' | 'expired';

export interface SessionRequirements {
  document_kinds: DocumentKind[];
  show_document_list: boolean;
  binding_message?: string;
  transaction_text?: { type: 'text' | 'markdown'; content: string };
}

export interface OpenedSession {
  session_token: string;
  expires_at: string;
  requirements: SessionRequirements;
}

export interface SessionStatus {
  state: SessionState;
  expires_at: string;
  requirements: SessionRequirements;
}

export interface ChipData {
  sod: Uint8Array;
  dataGroups: Map<number, Uint8Array>;
  /** The chip's INTERNAL AUTHENTICATE answer to the challenge from `activeAuthChallenge()`. */
  activeAuthSignature?: Uint8Array;
  /** The chip's response APDU to `protectedCommand` of the server's Chip Authentication challenge (ICAO 9303-11 §6.2). */
  chipAuthentication?: { responseApdu: Uint8Array };
}

/**
 * The server's Chip Authentication challenge (POST /session/ca-challenge): run the key agreement with
 * `terminalPublicKey` over the chip's secure channel (MSE:Set KAT with DO91, `keyId` as DO84, for a 3DES
 * protocol; MSE:Set AT + GENERAL AUTHENTICATE for an AES one, as DG14 names it), then send `protectedCommand` as is.
 */
export interface ChipAuthChallenge {
  terminalPublicKey: Uint8Array;
  protectedCommand: Uint8Array;
  keyId?: number;
}

export interface LivenessChallenge {
  challenge_id: string;
  /** By step index: steps[0] is 'center', the others movements. */
  steps: LivenessStep[];
  /** Frames per movement burst. */
  burst_frames: { min: number; max: number };
  expires_at: string;
}

export interface FaceFrame {
  /** Index in the challenge's steps: 0 = the centre frame, then the frames of each movement's burst, in capture order. */
  step: number;
  /** JPEG, PNG or JPEG 2000 bytes */
  image: Uint8Array;
  capturedAt: Date;
  /** The challenge the frame answers; uploadFace fills in the upload's own (set only to test refusals). */
  challengeId?: string;
}

/** Why the server asked for another capture (422 capture_retry): the centre frame was unusable, nothing was matched. */
export type CaptureRetryReason =
  'FACE_TOO_BLURRED' | 'FACE_TOO_DARK' | 'FACE_TOO_BRIGHT' | 'FACE_TOO_SMALL' | 'FACE_OFF_POSE' | 'MULTIPLE_FACES' | 'FACE_NOT_FOUND';

export interface Outcome {
  state: SessionState;
  authentication_result?: 'pass' | 'fail';
  result_explanation?: string[];
  facematch_level?: number;
}

export interface SpecimenDocument {
  mrz: string;
  sod: string;
  data_groups: Record<string, string>;
  /** PKCS#8, Base64: the specimen chip's Active Authentication key (documents with DG15) */
  active_authentication_key?: string;
  /** PKCS#8, Base64: the specimen chip's Chip Authentication key (documents with a DG14 CA key) */
  chip_authentication_key?: string;
}

/** Which proof the specimen chip offers: Active Authentication (DG15) or Chip Authentication only (DG14, no DG15). */
export type SpecimenCloneDetection = 'active-authentication' | 'chip-authentication';

/** A credential offer for the result screen: a QR code or button for the wallet, and the code the wallet asks for. */
export interface CredentialOffer {
  /** openid-credential-offer:// link */
  credential_offer: string;
  tx_code: string;
  /** the person's link to revoke what is issued from this offer */
  revocation_url: string;
  expires_at: string;
}
