/**
 * The credential issuer's state (keys and their metadata for verifiers, Token Status Lists, revocation) as parts for the issuer's module: its entities
 * (TypeOrmModule.forFeature), providers and controllers. The module imports AdminModule (AuditService, and the admin
 * guard is global); ExclusiveJobs (DatabaseModule), SecretBox, APP_CONFIG and the DataSource are the application's globals.
 */
import { IssuerKeyEntity } from './keys/issuer-key.entity.js';
import { JwtVcIssuerMetadataController } from './keys/jwt-vc-issuer-metadata.controller.js';
import { JwtVcIssuerMetadataService } from './keys/jwt-vc-issuer-metadata.js';
import { IssuerKeysAdminService } from './keys/issuer-keys-admin.service.js';
import { IssuerKeysController } from './keys/issuer-keys.controller.js';
import { IssuerKeysService } from './keys/issuer-keys.service.js';
import { IssuerTestAuthorityEntity } from './keys/issuer-test-authority.entity.js';
import { CredentialRevocationAdminController } from './revocation/credential-revocation-admin.controller.js';
import { RevocationPageController } from './revocation/revocation-page.controller.js';
import { CredentialStatusListEntity } from './status/credential-status-list.entity.js';
import { CredentialStatusPurgeService } from './status/credential-status-purge.service.js';
import { CredentialStatusService } from './status/credential-status.service.js';
import { IssuedCredentialStatusEntity } from './status/issued-credential-status.entity.js';
import { StatusListController } from './status/status-list.controller.js';
import { StatusListTokens } from './status/status-list-tokens.service.js';

export const ISSUER_STATE_ENTITIES = [IssuerKeyEntity, IssuerTestAuthorityEntity, CredentialStatusListEntity, IssuedCredentialStatusEntity];

export const ISSUER_STATE_PROVIDERS = [
  IssuerKeysService,
  JwtVcIssuerMetadataService,
  IssuerKeysAdminService,
  StatusListTokens,
  CredentialStatusService,
  CredentialStatusPurgeService,
];

export const ISSUER_STATE_CONTROLLERS = [
  IssuerKeysController,
  JwtVcIssuerMetadataController,
  StatusListController,
  RevocationPageController,
  CredentialRevocationAdminController,
];

// What the rest of the issuer uses (their types are exported beside them: IssuerSigner, StatusReference, RevocationHandle…).
export { IssuerKeysService } from './keys/issuer-keys.service.js';
export { CredentialStatusService } from './status/credential-status.service.js';
export { revocationHandle, revocationPageUrl } from './revocation/revocation-handle.js';
