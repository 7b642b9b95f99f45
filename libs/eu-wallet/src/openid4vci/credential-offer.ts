/**
 * The Credential Offer (OpenID4VCI 1.0 §4.1.1) for the pre-authorized code flow with a Transaction Code, built and
 * checked by @openid4vc/openid4vci's `createCredentialOffer`, and the link a wallet opens, by reference
 * (`credential_offer_uri`, §4.1.3), so the pre-authorized code is never in a QR code or a browser history.
 */
import { preAuthorizedCodeGrantIdentifier } from '@openid4vc/oauth2';
import { allowLoopbackHttpFor, isAllowedLoopbackHttp } from '../loopback-http.js';
import { Openid4vciIssuer, Openid4vciVersion, type CredentialOfferObject, type IssuerMetadataResult } from '@openid4vc/openid4vci';

export interface CredentialOfferInput {
  credentialIssuer: string;
  configurationIds: string[];
  /** High-entropy, single use, short-lived: the caller's. */
  preAuthorizedCode: string;
  /** §4.1.1: the Transaction Code the wallet asks the person for; description at most 300 characters. */
  txCode: { length: number; input_mode: 'numeric' | 'text'; description: string };
  /** A test environment on this machine: an http://127.0.0.1 issuer (never another http one). */
  allowHttpLoopback?: boolean;
}

const unused = () => {
  throw new Error('not used for a credential offer with a given pre-authorized code');
};

export async function credentialOffer(input: CredentialOfferInput): Promise<CredentialOfferObject> {
  if (input.preAuthorizedCode.length < 16 || input.preAuthorizedCode.length > 512) throw new Error('the pre-authorized code is not 16..512 characters');
  if (!Number.isInteger(input.txCode.length) || input.txCode.length < 1 || input.txCode.length > 32) throw new Error('tx_code length is not 1..32');
  if (input.txCode.description.length > 300) throw new Error('tx_code description is longer than 300 characters (§4.1.1)');
  // The library checks the ids against metadata; it reads no more of it than the configurations' keys.
  const issuerMetadata = {
    originalDraftVersion: Openid4vciVersion.V1,
    credentialIssuer: {
      credential_issuer: input.credentialIssuer,
      credential_endpoint: `${input.credentialIssuer}/credential`,
      credential_configurations_supported: Object.fromEntries(input.configurationIds.map((id) => [id, { format: 'dc+sd-jwt' }])),
    },
    authorizationServers: [],
    knownCredentialConfigurations: {},
  } as unknown as IssuerMetadataResult;
  allowLoopbackHttpFor(input.credentialIssuer, input.allowHttpLoopback);
  const issuer = new Openid4vciIssuer({
    callbacks: { hash: unused, signJwt: unused, verifyJwt: unused, generateRandom: unused, clientAuthentication: unused },
  });
  const { credentialOfferObject } = await issuer.createCredentialOffer({
    issuerMetadata,
    credentialConfigurationIds: input.configurationIds,
    grants: {
      [preAuthorizedCodeGrantIdentifier]: {
        'pre-authorized_code': input.preAuthorizedCode,
        tx_code: { length: input.txCode.length, input_mode: input.txCode.input_mode, description: input.txCode.description },
      },
    },
  });
  return credentialOfferObject;
}

/** §4.1.3 by reference: `openid-credential-offer://?credential_offer_uri=<url-encoded offer URI>`. */
export function credentialOfferLink(input: { offerUri: string; allowHttpLoopback?: boolean }): string {
  const uri = new URL(input.offerUri);
  if (uri.protocol !== 'https:' && !isAllowedLoopbackHttp(uri, input.allowHttpLoopback)) throw new Error('credential_offer_uri is not https');
  return `openid-credential-offer://?credential_offer_uri=${encodeURIComponent(input.offerUri)}`;
}
