/**
 * The Credential Request body (OpenID4VCI 1.0 §8.2), pinned to 1.0: `credential_configuration_id` and `proofs.jwt`.
 * @openid4vc/openid4vci's `parseCredentialRequest` checks the shape, but it also takes the drafts' forms (`proof`
 * singular, `format`, `credential_identifier`) and any proof type; those are refused here first.
 */
import { Oauth2ServerErrorResponseError } from '@openid4vc/oauth2';
import { Openid4vciIssuer, Openid4vciVersion, type IssuerMetadataResult } from '@openid4vc/openid4vci';
import { CredentialIssuerError } from './issuer-error.js';

export interface CredentialRequestInput {
  /** The parsed JSON body. */
  body: unknown;
  /** The configurations this issuer offers (its metadata's credential_configurations_supported keys). */
  configurationIds: readonly string[];
}

export interface ParsedCredentialRequest {
  configurationId: string;
  /** `proofs.jwt` as sent: for proofNonce and verifyKeyProofs. */
  jwts: unknown[];
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const unused = () => {
  throw new Error('not used to parse a credential request');
};

export function parseCredentialRequestBody(input: CredentialRequestInput): ParsedCredentialRequest {
  const body = input.body;
  if (!isObject(body)) throw new CredentialIssuerError('invalid_credential_request', 'the credential request is not a JSON object');
  // 1.0 removed `proof` (drafts up to 14) and `format` (drafts up to 13) from the request.
  if (body.proof !== undefined) throw new CredentialIssuerError('invalid_credential_request', 'proof is a draft parameter; OpenID4VCI 1.0 uses proofs');
  if (body.format !== undefined)
    throw new CredentialIssuerError('invalid_credential_request', 'format is a draft parameter; OpenID4VCI 1.0 uses credential_configuration_id');
  // §8.2: credential_identifier only when the token response gave credential_identifiers, which this issuer never does.
  if (body.credential_identifier !== undefined)
    throw new CredentialIssuerError('invalid_credential_request', 'credential_identifier is not used by this issuer; send credential_configuration_id');
  // §8.2 / §12.2.4: no credential_response_encryption in the metadata, so none can be honoured.
  if (body.credential_response_encryption !== undefined)
    throw new CredentialIssuerError('invalid_encryption_parameters', 'this issuer does not encrypt credential responses');
  const id = body.credential_configuration_id;
  if (typeof id !== 'string') throw new CredentialIssuerError('invalid_credential_request', 'credential_configuration_id is missing');
  if (!input.configurationIds.includes(id))
    throw new CredentialIssuerError('unknown_credential_configuration', 'credential_configuration_id is not one this issuer offers');
  // §8.2: proofs holds exactly one proof type; this issuer's metadata offers only jwt (§8.3.1.2: otherwise invalid_proof).
  const proofs = body.proofs;
  if (!isObject(proofs)) throw new CredentialIssuerError('invalid_proof', 'proofs is missing');
  const types = Object.keys(proofs);
  if (types.length !== 1 || types[0] !== 'jwt') throw new CredentialIssuerError('invalid_proof', 'proofs must hold exactly the jwt proof type');
  if (!Array.isArray(proofs.jwt)) throw new CredentialIssuerError('invalid_proof', 'proofs.jwt is not an array');

  // The library's zod schema for the rest of the shape.
  const issuerMetadata = {
    originalDraftVersion: Openid4vciVersion.V1,
    credentialIssuer: {
      credential_issuer: 'https://issuer.invalid',
      credential_endpoint: 'https://issuer.invalid/credential',
      credential_configurations_supported: { [id]: { format: 'dc+sd-jwt', vct: 'urn:x' } },
    },
    authorizationServers: [],
    knownCredentialConfigurations: { [id]: { format: 'dc+sd-jwt', vct: 'urn:x' } },
  } as unknown as IssuerMetadataResult;
  try {
    new Openid4vciIssuer({
      callbacks: { hash: unused, signJwt: unused, verifyJwt: unused, generateRandom: unused, clientAuthentication: unused },
    }).parseCredentialRequest({ issuerMetadata, credentialRequest: body });
  } catch (error) {
    const description = error instanceof Oauth2ServerErrorResponseError ? (error.errorResponse.error_description ?? '') : '';
    throw new CredentialIssuerError('invalid_credential_request', `the credential request is not valid: ${description}`, { cause: error });
  }
  return { configurationId: id, jwts: proofs.jwt };
}
