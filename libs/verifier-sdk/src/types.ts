/** The app API's messages as the SDK sees them (mirrors the server's DTOs; snake_case on the wire). */
export type DocumentKind = 'I' | 'P' | 'D' | 'V';
export type Pose = 'left' | 'center' | 'right';
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
  chipAuthentication?: { terminalPrivateKey: Uint8Array; responseApdu: Uint8Array; ssc: Uint8Array; keyId?: number };
}

export interface LivenessChallenge {
  challenge_id: string;
  sequence: Pose[];
  expires_at: string;
}

export interface FaceFrame {
  pose: Pose;
  /** JPEG or PNG bytes */
  image: Uint8Array;
  capturedAt: Date;
}

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
  /** PKCS#8, Base64: the specimen chip's Active Authentication key */
  active_authentication_key: string;
}
