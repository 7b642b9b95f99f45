import { Inject, Injectable } from '@nestjs/common';
import type { AdminActor } from '../../admin/admin-actor.js';
import { AuditService } from '../../admin/audit.service.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { OidcProviderService } from '../provider/oidc-provider.service.js';
import type { SigningKeyDto } from './dto/signing-key.dto.js';
import type { SigningKeyEntity } from './signing-key.entity.js';
import { SigningKeysService } from './signing-keys.service.js';

export const publicationDelaySeconds = (config: AppConfig) => 2 * config.oidc.keyReloadSeconds;

const toDto = (k: SigningKeyEntity): SigningKeyDto => ({
  kid: k.kid,
  alg: k.alg,
  status: k.status,
  retire_at: k.retireAt?.toISOString() ?? null,
  signs_from: k.signsFrom?.toISOString() ?? null,
  created_at: k.createdAt.toISOString(),
});

@Injectable()
export class SigningKeysAdminService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly keys: SigningKeysService,
    private readonly oidc: OidcProviderService,
    private readonly audit: AuditService,
  ) {}

  async list(): Promise<SigningKeyDto[]> {
    return (await this.keys.list()).map(toDto);
  }

  async rotate(actor: AdminActor): Promise<SigningKeyDto[]> {
    // Publish first, sign later: two reload intervals, so that every instance publishes the new keys
    // (one interval) with a margin for a slow reload, before any instance signs with them.
    const rows = await this.keys.rotate(this.config.oidc.keyRotationOverlapSeconds, publicationDelaySeconds(this.config));
    await this.oidc.reloadIfKeysChanged();
    await this.audit.record(actor, 'signing_keys.rotate', 'signing_keys', 'all', {
      active: rows.filter((r) => r.status === 'active').map((r) => r.kid),
    });
    return rows.map(toDto);
  }
}
