import { WalletCheckError } from '../errors.js';
import { isJsonObject, parseBoundedJson } from './bounded-json.js';

/**
 * The wallet's POST to the request_uri (`request_uri_method=post`, OpenID4VP 1.0 §5.10): form fields
 * `wallet_metadata` (a JSON object, §10) and `wallet_nonce`, both optional; other fields are ignored (§5.10.1).
 * The endpoint is unauthenticated, so everything is bounded before it is parsed. The metadata is returned as the
 * wallet sent it (bounded), not validated against @openid4vc/openid4vp's zWalletMetadata: that schema refuses
 * client_id_prefixes_supported values it does not know, where 1.0 has the Verifier ignore what it does not know.
 */
export interface RequestUriPost {
  walletMetadata?: Record<string, unknown>;
  /** To echo as wallet_nonce in the request object (createRequestObject's walletNonce). */
  walletNonce?: string;
}

const METADATA_BOUNDS = { maxLength: 16_384, maxDepth: 6, maxEntries: 512 };
/** 1.0 §5.10.1 suggests base64url of a random number; any printable ASCII is accepted, bounded. */
const WALLET_NONCE = /^[\x21-\x7e]{1,256}$/;

export function parseRequestUriPost(body: Record<string, unknown>): RequestUriPost {
  const result: RequestUriPost = {};
  const metadata = body.wallet_metadata;
  if (metadata !== undefined) {
    if (typeof metadata !== 'string') throw new WalletCheckError('malformed', 'wallet_metadata is not a single form field');
    const parsed = parseBoundedJson(metadata, METADATA_BOUNDS, 'wallet_metadata');
    if (!isJsonObject(parsed)) throw new WalletCheckError('malformed', 'wallet_metadata is not a JSON object');
    result.walletMetadata = parsed;
  }
  const nonce = body.wallet_nonce;
  if (nonce !== undefined) {
    if (typeof nonce !== 'string' || !WALLET_NONCE.test(nonce)) throw new WalletCheckError('malformed', 'wallet_nonce is not 1-256 printable ASCII characters');
    result.walletNonce = nonce;
  }
  return result;
}
