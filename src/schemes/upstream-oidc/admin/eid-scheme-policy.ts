import { ACR_EIDAS_HIGH } from '../../../broker/spi/acr.js';
import { UI_LOCALES } from '../../../i18n/locales.js';
import { type ClaimMapperConfig, mapperProblems } from '../mappers/index.js';
import { namesReservedAddress } from '../../../common/outbound/outbound-address.js';

/** Our acr values a scheme may map upstream values to. */
export const MAPPABLE_ACRS = [ACR_EIDAS_HIGH];

export interface SchemeShape {
  labels: Record<string, unknown>;
  environment: string;
  issuer: string;
  acrMap: Record<string, unknown>;
  claimMappers: ClaimMapperConfig[];
  idTokenEncryptedResponseAlg: string | null;
  idTokenEncryptedResponseEnc: string | null;
  tokenEndpointAuthMethod: string;
  clientSecretSealed: string | null;
}

/**
 * Cross-field and content checks class-validator cannot express, by field path. `production` is where
 * this deployment runs: there an upstream must be https and a customer-test scheme cannot be made.
 */
export function schemeProblems(s: SchemeShape, production: boolean): Record<string, string[]> {
  const problems: Record<string, string[]> = {};
  const add = (field: string, message: string) => (problems[field] ??= []).push(message);
  const labels = Object.entries(s.labels);
  if (!labels.length) add('labels', 'labels needs at least one ui_locale');
  for (const [locale, label] of labels) {
    if (!(UI_LOCALES as readonly string[]).includes(locale)) add('labels', `${locale} is not a ui_locale (${UI_LOCALES.join(', ')})`);
    if (typeof label !== 'string' || !label.trim() || label.length > 100) add('labels', `labels.${locale} must be text of 1 to 100 characters`);
  }
  for (const [upstream, ours] of Object.entries(s.acrMap)) {
    if (!upstream || upstream.length > 200) add('acr_map', 'upstream acr values must be 1 to 200 characters');
    if (!MAPPABLE_ACRS.includes(ours as string)) add('acr_map', `acr_map values must be one of ${MAPPABLE_ACRS.join(', ')}`);
  }
  if (production && s.environment === 'customer-test') add('environment', 'a customer-test scheme cannot run in production');
  if (production && !s.issuer.startsWith('https://')) add('issuer', 'issuer must be https in production');
  if (s.environment === 'production' && namesReservedAddress(s.issuer))
    add('issuer', 'a production scheme cannot have its issuer at a loopback, private or reserved address');
  if ((s.idTokenEncryptedResponseAlg === null) !== (s.idTokenEncryptedResponseEnc === null))
    add('id_token_encrypted_response_alg', 'id_token_encrypted_response_alg and id_token_encrypted_response_enc are set together (or both cleared with "")');
  // Without a secret openid-client would send no client authentication at all, which no upstream expecting one accepts.
  if (s.tokenEndpointAuthMethod !== 'private_key_jwt' && s.clientSecretSealed === null)
    add('client_secret', `${s.tokenEndpointAuthMethod} needs a client_secret (or token_endpoint_auth_method private_key_jwt)`);
  Object.assign(problems, mapperProblems(s.claimMappers));
  return problems;
}
