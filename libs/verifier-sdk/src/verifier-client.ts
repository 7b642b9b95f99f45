import { VerifierApiError } from './errors.js';
import { parseSessionLink } from './session-link.js';
import type {
  ChipAuthChallenge,
  ChipData,
  CredentialOffer,
  FaceFrame,
  LivenessChallenge,
  OpenedSession,
  Outcome,
  SessionStatus,
  SpecimenCloneDetection,
  SpecimenDocument,
} from './types.js';

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const unb64 = (text: string) => new Uint8Array(Buffer.from(text, 'base64'));

/**
 * Typed client of the verifier app API (the part of the SDK our server defines). One instance per
 * verification session: `open()` first, then the steps in order. Errors are VerifierApiError.
 */
export class VerifierClient {
  private sessionToken?: string;

  /** The phone's languages (an Accept-Language value, e.g. 'nb-NO, en'): capture-retry words come back in the first one served. */
  acceptLanguage?: string;

  constructor(
    private readonly apiBase: string,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  static fromLink(link: string, fetchImpl: typeof fetch = fetch): { client: VerifierClient; qrToken: string } {
    const { apiBase, qrToken } = parseSessionLink(link);
    return { client: new VerifierClient(apiBase, fetchImpl), qrToken };
  }

  async open(qrToken: string): Promise<OpenedSession> {
    const opened = await this.call<OpenedSession>('POST', '/sessions', { qr_token: qrToken }, false);
    this.sessionToken = opened.session_token;
    return opened;
  }

  status(): Promise<SessionStatus> {
    return this.call('GET', '/session');
  }

  async activeAuthChallenge(): Promise<Uint8Array> {
    const { challenge } = await this.call<{ challenge: string }>('POST', '/session/aa-challenge');
    return new Uint8Array(Buffer.from(challenge, 'hex'));
  }

  /** The server is the Chip Authentication terminal: it answers its ephemeral key and the command to relay (ICAO 9303-11 §6.2). */
  async chipAuthChallenge(dg14: Uint8Array, keyId?: number): Promise<ChipAuthChallenge> {
    const r = await this.call<{ terminal_public_key: string; protected_command: string; key_id?: number }>('POST', '/session/ca-challenge', {
      dg14: b64(dg14),
      ...(keyId !== undefined ? { key_id: keyId } : {}),
    });
    return {
      terminalPublicKey: unb64(r.terminal_public_key),
      protectedCommand: unb64(r.protected_command),
      ...(r.key_id !== undefined ? { keyId: r.key_id } : {}),
    };
  }

  uploadChip(chip: ChipData): Promise<{ received: boolean; next: string }> {
    return this.call('POST', '/session/chip', {
      sod: b64(chip.sod),
      data_groups: Object.fromEntries([...chip.dataGroups].map(([n, bytes]) => [String(n), b64(bytes)])),
      ...(chip.activeAuthSignature ? { active_authentication: { signature: b64(chip.activeAuthSignature) } } : {}),
      ...(chip.chipAuthentication ? { chip_authentication: { response_apdu: b64(chip.chipAuthentication.responseApdu) } } : {}),
    });
  }

  livenessChallenge(): Promise<LivenessChallenge> {
    return this.call('POST', '/session/liveness-challenge');
  }

  uploadFace(challengeId: string, frames: FaceFrame[]): Promise<Outcome> {
    return this.call('POST', '/session/face', {
      challenge_id: challengeId,
      frames: frames.map((f) => ({ challenge_id: f.challengeId ?? challengeId, step: f.step, image: b64(f.image), captured_at: f.capturedAt.toISOString() })),
    });
  }

  outcome(): Promise<Outcome> {
    return this.call('GET', '/session/outcome');
  }

  cancel(): Promise<Outcome> {
    return this.call('POST', '/session/cancel');
  }

  /** After a passed verification: an offer to keep the verified identity in the person's EU wallet (OpenID4VCI). */
  credentialOffer(): Promise<CredentialOffer> {
    return this.call('POST', '/session/credential-offer');
  }

  /** customer-test only: a specimen chip signed by the environment's specimen CSCA, with `faceImage` in DG2. */
  requestSpecimen(faceImage: Uint8Array, person?: string): Promise<SpecimenDocument & { active_authentication_key: string }>;
  requestSpecimen(faceImage: Uint8Array, person: string | undefined, cloneDetection: SpecimenCloneDetection): Promise<SpecimenDocument>;
  requestSpecimen(faceImage: Uint8Array, person?: string, cloneDetection?: SpecimenCloneDetection): Promise<SpecimenDocument> {
    return this.call(
      'POST',
      '/specimen-documents',
      { face_image: b64(faceImage), ...(person ? { person } : {}), ...(cloneDetection ? { clone_detection: cloneDetection } : {}) },
      false,
    );
  }

  private async call<T>(method: string, path: string, body?: unknown, authenticated = true): Promise<T> {
    if (authenticated && !this.sessionToken) throw new Error('open the session first');
    const res = await this.fetchImpl(`${this.apiBase}${path}`, {
      method,
      headers: {
        accept: 'application/json',
        ...(this.acceptLanguage ? { 'accept-language': this.acceptLanguage } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(authenticated ? { authorization: `Bearer ${this.sessionToken}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    const json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    if (!res.ok) {
      const error = new VerifierApiError(
        res.status,
        String(json.error ?? 'error'),
        String(json.error_description ?? res.statusText),
        json.request_id as string | undefined,
      );
      if (typeof json.retry_message === 'string') error.retryMessage = json.retry_message;
      throw error;
    }
    return json as T;
  }
}
