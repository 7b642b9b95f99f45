/**
 * The success answers of the nonce and credential endpoints, in 1.0 form and checked by @openid4vc/openid4vci's zod
 * schemas: `{c_nonce}` (OpenID4VCI 1.0 §7.2; served with Cache-Control: no-store) and `{credentials: [{credential}]}`
 * (§8.3: an array of objects, one per issued credential, not the drafts' single `credential`).
 */
import { Openid4vciIssuer } from '@openid4vc/openid4vci';

const unused = () => {
  throw new Error('not used for a response');
};
const library = () =>
  new Openid4vciIssuer({ callbacks: { hash: unused, signJwt: unused, verifyJwt: unused, generateRandom: unused, clientAuthentication: unused } });

export function nonceResponse(cNonce: string): { c_nonce: string } {
  const { c_nonce } = library().createNonceResponse({ cNonce });
  return { c_nonce };
}

export function credentialResponse(credentials: readonly string[]): { credentials: { credential: string }[] } {
  if (credentials.length === 0) throw new Error('a credential response holds at least one credential');
  const entries = credentials.map((credential) => ({ credential }));
  library().createCredentialResponse({ credentialRequest: {} as never, credentials: entries });
  return { credentials: entries };
}
