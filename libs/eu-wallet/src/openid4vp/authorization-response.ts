import { KeyObject, createPrivateKey } from 'node:crypto';
import { compactDecrypt, type JWK } from 'jose';
import { WalletCheckError } from '../errors.js';
import { isJsonObject, parseBoundedJson } from './bounded-json.js';
import { parseVpToken, type VpToken } from './vp-token.js';

/**
 * The wallet's answer at the response_uri under `direct_post.jwt` (OpenID4VP 1.0 §8.3.1): form field `response`,
 * an unsigned encrypted JWT (§8.3) whose payload holds vp_token and state. Opened with jose, not with
 * @openid4vc/openid4vp 0.4.6, whose JARM path accepts a signed but unencrypted answer, an `enc` that was not offered,
 * and a vp_token entry that is not an array: each is refused here.
 */
export interface OpenAuthorizationResponseOptions {
  /** The POSTed form fields. */
  form: Record<string, unknown>;
  /** The private half of the request's response encryption key. */
  decryptionKey: JWK | KeyObject;
  /** Its `kid` in client_metadata.jwks; the JWE must carry it (1.0 §8.3). */
  keyId: string;
  /** encrypted_response_enc_values_supported of the request. */
  offeredEnc: string[];
  /** The request's state: the response must carry it (1.0 §5.2, §14.3). */
  expectedState?: string;
}

export type AuthorizationResponse =
  { kind: 'vp_token'; vpToken: VpToken; state: string } | { kind: 'error'; error: string; errorDescription?: string; state?: string };

/** The response field: 1 MiB is far above two credentials' presentations and bounds the work a stranger can cause. */
const MAX_RESPONSE = 1_048_576;
const MAX_HEADER = 4096;
const PAYLOAD_BOUNDS = { maxLength: MAX_RESPONSE, maxDepth: 8, maxEntries: 256 };
const COMPACT = /^[A-Za-z0-9_-]+$/;
/** RFC 6749 §4.1.2.1: error and error_description are printable ASCII without `"` and `\`. */
const ERROR_CODE = /^[\x20\x21\x23-\x5b\x5d-\x7e]{1,128}$/;
const ERROR_TEXT = /^[\x20\x21\x23-\x5b\x5d-\x7e]{0,1024}$/;

export async function openAuthorizationResponse(options: OpenAuthorizationResponseOptions): Promise<AuthorizationResponse> {
  const { form } = options;
  const response = form.response;
  if (response === undefined) {
    // 1.0 §8.3.1: a wallet unable to encrypt MAY send an error response unencrypted (as direct_post does).
    if (form.error !== undefined) return errorResponse(form, options.expectedState);
    if (form.vp_token !== undefined)
      throw new WalletCheckError('malformed', 'vp_token was sent unencrypted; the request asked for direct_post.jwt (OpenID4VP 1.0 §8.3.1)');
    throw new WalletCheckError('malformed', 'the POST has no response parameter');
  }
  if (form.vp_token !== undefined) throw new WalletCheckError('malformed', 'the POST has vp_token beside response; only the encrypted response is accepted');
  if (typeof response !== 'string') throw new WalletCheckError('malformed', 'response is not a single form field');
  if (response.length > MAX_RESPONSE) throw new WalletCheckError('malformed', `response is longer than ${MAX_RESPONSE} characters`);
  const parts = response.split('.');
  if (parts.length === 3)
    throw new WalletCheckError('malformed', 'response is a JWS (signed, not encrypted); direct_post.jwt needs an encrypted JWT (OpenID4VP 1.0 §8.3)');
  if (parts.length !== 5 || !COMPACT.test(parts[0])) throw new WalletCheckError('malformed', 'response is not a compact JWE');
  checkJweHeader(parts[0], options);
  // Part 1 (the encrypted key) is empty for ECDH-ES direct key agreement (RFC 7518 §4.6).
  if (parts[1] !== '' || !parts.slice(2).every((part) => COMPACT.test(part)))
    throw new WalletCheckError('malformed', 'response is not a compact JWE with direct key agreement');
  const key = decryptionKey(options.decryptionKey);
  let plaintext: Uint8Array;
  try {
    ({ plaintext } = await compactDecrypt(response, key, { keyManagementAlgorithms: ['ECDH-ES'], contentEncryptionAlgorithms: options.offeredEnc }));
  } catch (e) {
    throw new WalletCheckError('wrong_binding', "response does not decrypt with this request's key", { cause: e });
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(plaintext);
  } catch {
    throw new WalletCheckError('malformed', 'the decrypted response is not UTF-8');
  }
  const payload = parseBoundedJson(text, PAYLOAD_BOUNDS, 'the decrypted response');
  if (!isJsonObject(payload)) throw new WalletCheckError('malformed', 'the decrypted response is not a JSON object');
  if (payload.error !== undefined) return errorResponse(payload, options.expectedState);
  if (payload.vp_token === undefined) throw new WalletCheckError('malformed', 'the decrypted response has neither vp_token nor error');
  const vpToken = parseVpToken(payload.vp_token);
  const state = payload.state;
  if (typeof state !== 'string') throw new WalletCheckError('wrong_binding', 'the response carries no state');
  if (options.expectedState !== undefined && state !== options.expectedState)
    throw new WalletCheckError('wrong_binding', "the response's state is not this request's");
  return { kind: 'vp_token', vpToken, state };
}

/**
 * The protected header, before any key agreement: alg ECDH-ES on P-256 (HAIP 1.0 §5; 1.0 §8.3: alg equals the JWK's),
 * enc among those offered, kid equal to the key's (1.0 §8.3: the JWE MUST carry the key's kid), no zip, no crit.
 * 1.0 leaves apu/apv to the wallet (they feed the KDF and are covered by the tag, §8.3), so they are not required;
 * the mdoc binding to the key is the JWK thumbprint in the SessionTranscript (Appendix B.2.6.1), not apu/apv.
 */
function checkJweHeader(encoded: string, options: OpenAuthorizationResponseOptions): void {
  if (encoded.length > MAX_HEADER) throw new WalletCheckError('malformed', 'the JWE header is too long');
  const header = parseBoundedJson(Buffer.from(encoded, 'base64url').toString('utf8'), { maxLength: MAX_HEADER, maxDepth: 3, maxEntries: 32 }, 'the JWE header');
  if (!isJsonObject(header)) throw new WalletCheckError('malformed', 'the JWE header is not a JSON object');
  if (header.alg !== 'ECDH-ES') throw new WalletCheckError('malformed', `JWE alg ${JSON.stringify(header.alg)} is not ECDH-ES (the alg of the offered key)`);
  if (typeof header.enc !== 'string' || !options.offeredEnc.includes(header.enc)) {
    throw new WalletCheckError('malformed', `JWE enc ${JSON.stringify(header.enc)} was not offered (${options.offeredEnc.join(', ')})`);
  }
  if (header.zip !== undefined || header.crit !== undefined) throw new WalletCheckError('malformed', 'the JWE header has zip or crit');
  if (header.kid === undefined) throw new WalletCheckError('malformed', 'the JWE header has no kid (OpenID4VP 1.0 §8.3)');
  if (header.kid !== options.keyId) throw new WalletCheckError('wrong_binding', 'the JWE was made for another key (kid)');
  const epk = header.epk;
  if (!isJsonObject(epk) || epk.kty !== 'EC' || epk.crv !== 'P-256' || 'd' in epk)
    throw new WalletCheckError('malformed', 'the JWE epk is not a public P-256 key');
}

function decryptionKey(key: JWK | KeyObject): KeyObject {
  const object = key instanceof KeyObject ? key : createPrivateKey({ key: key as never, format: 'jwk' });
  if (object.type !== 'private' || object.asymmetricKeyDetails?.namedCurve !== 'prime256v1') throw new TypeError('decryptionKey must be a private P-256 key');
  return object;
}

/**
 * An error response (1.0 §8.5, RFC 6749 §4.1.2.1), plain or decrypted. It must carry the request's state (RFC 6749
 * §4.1.2.1 makes state REQUIRED when the request had one): without it, anyone who saw the response_uri could post
 * an error for a request whose state they never read.
 */
function errorResponse(fields: Record<string, unknown>, expectedState: string | undefined): AuthorizationResponse {
  const { error, error_description: description, state } = fields;
  if (typeof error !== 'string' || !ERROR_CODE.test(error)) throw new WalletCheckError('malformed', 'error is not an RFC 6749 error code');
  if (description !== undefined && (typeof description !== 'string' || !ERROR_TEXT.test(description)))
    throw new WalletCheckError('malformed', 'error_description is not RFC 6749 text');
  if (state !== undefined && typeof state !== 'string') throw new WalletCheckError('malformed', 'state is not a string');
  if (expectedState !== undefined && state === undefined) throw new WalletCheckError('wrong_binding', 'the error response carries no state');
  if (expectedState !== undefined && state !== expectedState) throw new WalletCheckError('wrong_binding', "the error response's state is not this request's");
  return { kind: 'error', error, ...(description !== undefined ? { errorDescription: description as string } : {}), ...(state !== undefined ? { state } : {}) };
}
