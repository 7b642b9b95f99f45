import { AppError } from '../../common/errors/app-error.js';
import { CREDENTIAL_CONFIGURATION_ID } from '../credential-issuer-paths.js';
import type { WalletClient } from '../../config/wallet-clients.js';

/** A wallet's authorization request, checked (OpenID4VCI 1.0 §5.1, RFC 6749 §4.1.1, RFC 7636 §4.3). */
export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  state?: string;
  uiLocales?: string;
}

/**
 * Why a request is refused. `redirect`: the client and its redirect URI are known, so the wallet is told there
 * (RFC 6749 §4.1.2.1); otherwise the person is told on a page of ours, never sent to an unregistered URI.
 */
type RefusalCode = 'invalid_request' | 'unauthorized_client' | 'unsupported_response_type' | 'invalid_scope';

export class AuthorizationRefusal extends AppError {
  constructor(
    code: RefusalCode,
    description: string,
    readonly redirect?: { redirectUri: string; state?: string },
  ) {
    super(400, code, description);
  }
}

const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const MAX_STATE = 500;

export function checkAuthorizationRequest(query: Record<string, unknown>, clients: readonly WalletClient[]): AuthorizationRequest {
  const one = (name: string): string | undefined => {
    const value = query[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || value.length > 4000) throw new AuthorizationRefusal('invalid_request', `${name} must be given once`);
    return value;
  };
  const clientId = one('client_id');
  const client = clients.find((c) => c.clientId === clientId);
  if (!client) throw new AuthorizationRefusal('unauthorized_client', 'the wallet (client_id) is not registered with this issuer');
  const redirectUri = one('redirect_uri');
  if (!redirectUri || !client.redirectUris.includes(redirectUri))
    throw new AuthorizationRefusal('invalid_request', 'redirect_uri is not one registered for this wallet');
  const state = one('state');
  const back = (code: RefusalCode, description: string) => new AuthorizationRefusal(code, description, { redirectUri, state });
  if (state !== undefined && (state.length > MAX_STATE || !/^[\x20-\x7e]*$/.test(state)))
    throw new AuthorizationRefusal('invalid_request', `state must be printable ASCII of at most ${MAX_STATE}`);
  if (one('response_type') !== 'code') throw back('unsupported_response_type', 'response_type must be code');
  const codeChallenge = one('code_challenge');
  if (one('code_challenge_method') !== 'S256' || !codeChallenge || !CHALLENGE.test(codeChallenge))
    throw back('invalid_request', 'PKCE is required: code_challenge (43 characters) with code_challenge_method S256');
  if (!asksForTheCredential(one('authorization_details'), one('scope')))
    throw back('invalid_scope', `the request must ask for ${CREDENTIAL_CONFIGURATION_ID} (authorization_details of type openid_credential, or scope)`);
  return { clientId: client.clientId, redirectUri, codeChallenge, state, uiLocales: one('ui_locales') };
}

/** §5.1.1 authorization_details of type openid_credential naming our configuration, or §5.1.2 its scope. */
function asksForTheCredential(details: string | undefined, scope: string | undefined): boolean {
  if (scope?.split(' ').includes(CREDENTIAL_CONFIGURATION_ID)) return true;
  if (details === undefined) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(details);
  } catch {
    return false;
  }
  return (
    Array.isArray(parsed) &&
    parsed.length >= 1 &&
    parsed.length <= 10 &&
    parsed.every(
      (d) =>
        typeof d === 'object' &&
        d !== null &&
        (d as Record<string, unknown>).type === 'openid_credential' &&
        (d as Record<string, unknown>).credential_configuration_id === CREDENTIAL_CONFIGURATION_ID,
    )
  );
}
