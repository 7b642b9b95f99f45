import { CREDENTIAL_CONFIGURATION_ID } from '../credential-issuer-paths.js';
import { invalidCredentialRequest, unknownCredentialConfiguration } from '../credential-issuer.errors.js';

/** A key proof JWT is a few hundred characters; a longer one is not a proof this issuer would accept. */
const MAX_PROOF_LENGTH = 4096;

/**
 * The credential request of OpenID4VCI 1.0 §8.2, as this issuer takes it: the configuration by its id (not a
 * credential_identifier: the token carries no authorization_details) and key proofs as `proofs.jwt`, one per
 * credential wanted, at most the batch size of the metadata. The draft shapes (`format`, a single `proof`) are refused.
 */
export function parseCredentialRequest(body: unknown, batchSize: number): string[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidCredentialRequest('the credential request must be a JSON object');
  const request = body as Record<string, unknown>;
  if ('credential_identifier' in request) throw invalidCredentialRequest('credential_identifier is not supported: name the credential_configuration_id');
  if ('proof' in request) throw invalidCredentialRequest('a single proof is a draft form: send proofs.jwt (OpenID4VCI 1.0 §8.2)');
  if (request.credential_configuration_id !== CREDENTIAL_CONFIGURATION_ID) throw unknownCredentialConfiguration();
  const proofs = request.proofs;
  if (typeof proofs !== 'object' || proofs === null || Array.isArray(proofs)) throw invalidCredentialRequest('proofs.jwt is required');
  const kinds = Object.keys(proofs);
  if (kinds.length !== 1 || kinds[0] !== 'jwt') throw invalidCredentialRequest('only the jwt proof type is supported');
  const jwts = (proofs as Record<string, unknown>).jwt;
  if (!Array.isArray(jwts) || jwts.length === 0) throw invalidCredentialRequest('proofs.jwt must be a non-empty array');
  if (jwts.length > batchSize) throw invalidCredentialRequest(`at most ${batchSize} credentials per request (batch_credential_issuance.batch_size)`);
  if (!jwts.every((j): j is string => typeof j === 'string' && j.length > 0 && j.length <= MAX_PROOF_LENGTH)) throw invalidCredentialRequest('each proof must be a compact JWT');
  return jwts;
}
