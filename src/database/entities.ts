import { AdminTokenEntity } from '../admin/admin-token.entity.js';
import { AuditRecordEntity } from '../admin/audit-record.entity.js';
import { AppBindingEntity } from '../ciba/bindings/app-binding.entity.js';
import { OutboxEntity } from '../ciba/outbox/outbox.entity.js';
import { CibaRequestEntity } from '../ciba/requests/ciba-request.entity.js';
import { MerchantEntity } from '../merchants/merchant.entity.js';
import { SigningKeyEntity } from '../oidc/keys/signing-key.entity.js';
import { BrokeredLoginEntity } from '../broker/logins/brokered-login.entity.js';
import { OidcPayloadEntity } from '../oidc/storage/oidc-payload.entity.js';
import { VerificationRecordEntity } from '../verifier/records/verification-record.entity.js';
import { VerificationSessionEntity } from '../verifier/session/verification-session.entity.js';
import { SpecimenAuthorityEntity } from '../verifier/specimen/specimen-authority.entity.js';
import { PadesTestSignerEntity } from '../auth-files/signing/pades-test-signer.entity.js';
import { SamlSigningKeyEntity } from '../saml/keys/saml-signing-key.entity.js';
import { SamlTransactionEntity } from '../saml/sso/saml-transaction.entity.js';
import { SamlArtifactEntity } from '../saml/artifact/saml-artifact.entity.js';
import { PendingRedirectEntity } from '../broker/redirects/pending-redirect.entity.js';
import { EidSchemeEntity } from '../schemes/upstream-oidc/eid-scheme.entity.js';
import { UpstreamClientKeyEntity } from '../schemes/upstream-oidc/keys/upstream-client-key.entity.js';
import { MerchantLogoEntity } from '../merchants/logos/merchant-logo.entity.js';

export const ENTITIES = [
  MerchantEntity, AdminTokenEntity, AuditRecordEntity, OidcPayloadEntity, SigningKeyEntity, BrokeredLoginEntity,
  VerificationSessionEntity, VerificationRecordEntity, SpecimenAuthorityEntity, CibaRequestEntity, AppBindingEntity, OutboxEntity,
  SamlSigningKeyEntity, SamlTransactionEntity, SamlArtifactEntity, PadesTestSignerEntity, EidSchemeEntity, PendingRedirectEntity,
  UpstreamClientKeyEntity,
  MerchantLogoEntity,
];
