import { Foundation1700000000001 } from './1700000000001-foundation.js';
import { Oidc1700000000002 } from './1700000000002-oidc.js';
import { HashedCredentials1700000000004 } from './1700000000004-hashed-credentials.js';
import { SubjectType1700000000005 } from './1700000000005-subject-type.js';
import { ProtocolHardening1700000000006 } from './1700000000006-protocol-hardening.js';
import { Ciba1700000000008 } from './1700000000008-ciba.js';
import { PadesSigner1700000000110 } from './1700000000110-pades-signer.js';
import { SamlMerchants1700000000120 } from './1700000000120-saml-merchants.js';
import { SamlFrontDoor1700000000121 } from './1700000000121-saml-front-door.js';
import { SamlArtifacts1700000000122 } from './1700000000122-saml-artifacts.js';
import { PostLogoutRedirectUris1700000000123 } from './1700000000123-post-logout-redirect-uris.js';
import { CibaRequestSigning1700000000009 } from './1700000000009-ciba-request-signing.js';
import { MerchantUiLocale1700000000130 } from './1700000000130-merchant-ui-locale.js';
import { MerchantLogos1700000000210 } from './1700000000210-merchant-logos.js';
import { CredentialIssuer1700000000240 } from './1700000000240-credential-issuer.js';
import { CredentialIssuerState1700000000241 } from './1700000000241-credential-issuer-state.js';
import { MerchantReusedIdentityAge1700000000242 } from './1700000000242-merchant-reused-identity-age.js';
import { CredentialIssuerStatelessNonces1700000000244 } from './1700000000244-credential-issuer-stateless-nonces.js';
import { MerchantMutualTls1700000000254 } from './1700000000254-merchant-mutual-tls.js';
import { MerchantMessageSigning1700000000255 } from './1700000000255-merchant-message-signing.js';
import { CredentialIssuerOneLiveOffer1700000000258 } from './1700000000258-credential-issuer-one-live-offer.js';
import { CredentialIssuerPublishedKeys1700000000251 } from './1700000000251-credential-issuer-published-keys.js';
import { MerchantSecurityProfile1700000000252 } from './1700000000252-merchant-security-profile.js';
import { MerchantDpopBoundAccessTokens1700000000253 } from './1700000000253-merchant-dpop-bound-access-tokens.js';

/**
 * The core's migrations, listed explicitly (no globbing). Each scheme lists its own in its manifest
 * (src/schemes/<scheme>/migrations/); the data source runs them all, in the order of their timestamps (`inOrder`).
 */
export const CORE_MIGRATIONS = [
  Foundation1700000000001,
  Oidc1700000000002,
  HashedCredentials1700000000004,
  SubjectType1700000000005,
  ProtocolHardening1700000000006,
  Ciba1700000000008,
  CibaRequestSigning1700000000009,
  PadesSigner1700000000110,
  SamlMerchants1700000000120,
  SamlFrontDoor1700000000121,
  SamlArtifacts1700000000122,
  PostLogoutRedirectUris1700000000123,
  MerchantUiLocale1700000000130,
  MerchantLogos1700000000210,
  CredentialIssuer1700000000240,
  CredentialIssuerState1700000000241,
  MerchantReusedIdentityAge1700000000242,
  CredentialIssuerStatelessNonces1700000000244,
  CredentialIssuerPublishedKeys1700000000251,
  MerchantSecurityProfile1700000000252,
  MerchantMutualTls1700000000254,
  MerchantMessageSigning1700000000255,
  MerchantDpopBoundAccessTokens1700000000253,
  CredentialIssuerOneLiveOffer1700000000258,
];

/** A migration class's timestamp: the digits its name ends with (TypeORM reads it from there too). */
const timestampOf = (migration: { name: string }) => Number(/(\d{13})$/.exec(migration.name)?.[1] ?? NaN);

/** The same list runs on PGlite and PostgreSQL, in the order of the timestamps, wherever each migration lives. */
export function inOrder<T extends { name: string }>(migrations: T[]): T[] {
  return [...migrations].sort((a, b) => timestampOf(a) - timestampOf(b));
}
