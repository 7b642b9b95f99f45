/**
 * Receiving credentials over OpenID4VCI 1.0 with the Pre-Authorized Code flow, by hand (jose and fetch; none of the
 * issuer's libraries): the offer (§4.1), the metadata (§12.2, RFC 8414), then the token with the pre-authorized code
 * (§6.1) and the credential request as every grant does it (credential-request.ts).
 */
import { checkTxCode, PRE_AUTHORIZED_GRANT, resolveCredentialOffer } from './credential-offer.js';
import type { StoredCredential } from './credential-store.js';
import { checkBatch, checkConfiguration, redeemAndReceive } from './credential-request.js';
import type { Fetch } from './http-json.js';
import { authorizationServerOf, fetchAuthorizationServerMetadata, fetchIssuerMetadata } from './issuer-metadata.js';

export interface ReceiveOptions {
  /** The offer link, the QR code's text, or the offer's JSON. */
  offerLink: string;
  /** The transaction code the person was given apart from the offer (§4.1.1 tx_code). */
  txCode?: string;
  /** How many credentials to ask for (one key each); capped by the issuer's batch_size. Default 1. */
  batch?: number;
  /** Which of the offered configurations to receive; default the first offered. */
  credentialConfigurationId?: string;
  fetch?: Fetch;
}

export async function receiveCredentials(options: ReceiveOptions): Promise<StoredCredential[]> {
  const fetchImpl = options.fetch ?? fetch;
  const batch = checkBatch(options.batch);
  const offer = await resolveCredentialOffer(options.offerLink, fetchImpl);
  checkTxCode(offer, options.txCode);
  const grant = offer.grants[PRE_AUTHORIZED_GRANT];
  const metadata = await fetchIssuerMetadata(offer.credential_issuer, fetchImpl);
  const id = options.credentialConfigurationId ?? offer.credential_configuration_ids[0];
  if (!offer.credential_configuration_ids.includes(id)) throw new Error(`the offer does not offer ${id}`);
  const configuration = checkConfiguration(metadata, id);
  const as = await fetchAuthorizationServerMetadata(authorizationServerOf(metadata, grant.authorization_server), fetchImpl);

  // §6.1: the pre-authorized code, and the transaction code when the offer asked for one.
  const tokenForm = new URLSearchParams({ grant_type: PRE_AUTHORIZED_GRANT, 'pre-authorized_code': grant['pre-authorized_code'] });
  if (options.txCode !== undefined) tokenForm.set('tx_code', options.txCode);
  return redeemAndReceive({ fetch: fetchImpl, metadata, configuration, tokenEndpoint: as.token_endpoint, tokenForm, batch });
}
