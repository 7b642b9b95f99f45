import { X509Certificate } from 'node:crypto';
import { unknownScopes } from './scopes.js';

/**
 * A merchant as a SAML 1.1 relying party (issue 12), stored as one JSON document in the API's own names.
 * The entity ID is the audience of every assertion made for the merchant and how it names itself when it
 * resolves an artifact; the URLs are exact strings, like redirect URIs.
 */
export interface MerchantSamlSettings {
  entity_id: string;
  /** Browser/POST: where the auto-submitting form posts the signed samlp:Response. */
  assertion_consumer_url: string | null;
  /** Browser/Artifact: where the browser is sent with SAMLart and TARGET. */
  artifact_receiver_url: string | null;
  /** PEM certificate the merchant presents on the artifact back-channel (TLS client authentication). */
  certificate: string | null;
  /** Scopes whose attributes are released in assertions (SAML requests carry none); spec 2.3 values. */
  scope: string;
}

/** Without a registered scope only the scope-free attributes of spec 2.1 are released (least by default). */
export const DEFAULT_SAML_SCOPE = 'openid';

/** Scopes that mean nothing in an assertion: there is no refresh token to offer. */
const NOT_FOR_SAML = new Set(['offline_access']);

/** The API object as stored: every member present, absent optional ones null. */
export function normalizeSamlSettings(dto: Partial<MerchantSamlSettings> | null): MerchantSamlSettings | null {
  if (dto === null) return null;
  return {
    entity_id: dto.entity_id ?? '',
    assertion_consumer_url: dto.assertion_consumer_url ?? null,
    artifact_receiver_url: dto.artifact_receiver_url ?? null,
    certificate: dto.certificate?.trim() ?? null,
    scope: dto.scope ?? DEFAULT_SAML_SCOPE,
  };
}

/**
 * Rules across the SAML settings and the rest of the merchant; shapes are the DTO's job. `httpsOnly`
 * is the merchant policy's rule for exact URLs (https, plus localhost in customer-test).
 */
export function samlSettingProblems(
  saml: MerchantSamlSettings,
  merchantScope: string | null,
  httpsOnly: (field: string, uris: string[]) => void,
  add: (field: string, message: string) => void,
): void {
  if (!saml.assertion_consumer_url && !saml.artifact_receiver_url)
    add('saml', 'give assertion_consumer_url (Browser/POST) or artifact_receiver_url (Browser/Artifact), or both');
  if (saml.assertion_consumer_url) httpsOnly('saml.assertion_consumer_url', [saml.assertion_consumer_url]);
  if (saml.artifact_receiver_url) httpsOnly('saml.artifact_receiver_url', [saml.artifact_receiver_url]);
  const scopes = saml.scope.split(' ');
  if (!scopes.includes('openid')) add('saml.scope', 'must include openid');
  for (const s of unknownScopes(saml.scope)) add('saml.scope', `${s} is not a scope of this service`);
  for (const s of scopes.filter((x) => NOT_FOR_SAML.has(x))) add('saml.scope', `${s} has no meaning in an assertion`);
  // The login runs as an OIDC authorization request with these scopes: the merchant's own limit applies.
  if (merchantScope) {
    const allowed = new Set(merchantScope.split(' '));
    for (const s of scopes.filter((x) => !allowed.has(x) && !NOT_FOR_SAML.has(x))) add('saml.scope', `${s} is not in the merchant's scope`);
  }
  if (saml.certificate) {
    try {
      const cert = new X509Certificate(saml.certificate);
      if (new Date(cert.validTo).getTime() < Date.now()) add('saml.certificate', 'the certificate has expired');
    } catch {
      add('saml.certificate', 'must be one X.509 certificate in PEM');
    }
  }
}
