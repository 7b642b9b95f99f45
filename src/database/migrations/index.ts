import { Foundation1700000000001 } from './1700000000001-foundation.js';
import { Oidc1700000000002 } from './1700000000002-oidc.js';
import { Verifier1700000000003 } from './1700000000003-verifier.js';
import { HashedCredentials1700000000004 } from './1700000000004-hashed-credentials.js';
import { SubjectType1700000000005 } from './1700000000005-subject-type.js';
import { ProtocolHardening1700000000006 } from './1700000000006-protocol-hardening.js';
import { ChipAuthChallenge1700000000007 } from './1700000000007-chip-auth-challenge.js';
import { Ciba1700000000008 } from './1700000000008-ciba.js';
import { PadesSigner1700000000110 } from './1700000000110-pades-signer.js';
import { SamlMerchants1700000000120 } from './1700000000120-saml-merchants.js';
import { SamlFrontDoor1700000000121 } from './1700000000121-saml-front-door.js';
import { SamlArtifacts1700000000122 } from './1700000000122-saml-artifacts.js';
import { PostLogoutRedirectUris1700000000123 } from './1700000000123-post-logout-redirect-uris.js';
import { CibaRequestSigning1700000000009 } from './1700000000009-ciba-request-signing.js';
import { MerchantUiLocale1700000000130 } from './1700000000130-merchant-ui-locale.js';
import { EidSchemes1700000000200 } from './1700000000200-eid-schemes.js';
import { UpstreamClientKeys1700000000201 } from './1700000000201-upstream-client-keys.js';
import { UpstreamIdTokenEncryption1700000000202 } from './1700000000202-upstream-id-token-encryption.js';
import { MerchantLogos1700000000210 } from './1700000000210-merchant-logos.js';
import { DocumentFaceTemplate1700000000220 } from './1700000000220-document-face-template.js';
import { EuWallet1700000000230 } from './1700000000230-eu-wallet.js';
import { CredentialIssuer1700000000240 } from './1700000000240-credential-issuer.js';
import { CredentialIssuerState1700000000241 } from './1700000000241-credential-issuer-state.js';
import { MerchantReusedIdentityAge1700000000242 } from './1700000000242-merchant-reused-identity-age.js';
import { WalletTransactionPerLink1700000000243 } from './1700000000243-wallet-transaction-per-link.js';
import { CredentialIssuerStatelessNonces1700000000244 } from './1700000000244-credential-issuer-stateless-nonces.js';

/** Listed explicitly (no globbing): the same list runs on PGlite and PostgreSQL, in order. */
export const MIGRATIONS = [Foundation1700000000001, Oidc1700000000002, Verifier1700000000003, HashedCredentials1700000000004, SubjectType1700000000005, ProtocolHardening1700000000006, ChipAuthChallenge1700000000007, Ciba1700000000008, CibaRequestSigning1700000000009, PadesSigner1700000000110, SamlMerchants1700000000120, SamlFrontDoor1700000000121, SamlArtifacts1700000000122, PostLogoutRedirectUris1700000000123, MerchantUiLocale1700000000130, EidSchemes1700000000200, UpstreamClientKeys1700000000201, UpstreamIdTokenEncryption1700000000202, MerchantLogos1700000000210, DocumentFaceTemplate1700000000220, EuWallet1700000000230, CredentialIssuer1700000000240, CredentialIssuerState1700000000241, MerchantReusedIdentityAge1700000000242, WalletTransactionPerLink1700000000243, CredentialIssuerStatelessNonces1700000000244];
