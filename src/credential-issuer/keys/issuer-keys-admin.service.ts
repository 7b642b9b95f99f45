import { Inject, Injectable } from '@nestjs/common';
import type { AdminActor } from '../../admin/admin-actor.js';
import { AuditService } from '../../admin/audit.service.js';
import { AppError } from '../../common/errors/app-error.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import type { IssuerKeyDto } from './dto/issuer-key.dto.js';
import { IssuerKeysService, type IssuerKeyView } from './issuer-keys.service.js';

const toDto = (k: IssuerKeyView): IssuerKeyDto => ({
  kid: k.kid,
  status: k.status,
  subject: k.subject,
  not_after: k.notAfter.toISOString(),
  signs_from: k.signsFrom?.toISOString() ?? null,
  retire_at: k.retireAt?.toISOString() ?? null,
  created_at: k.createdAt?.toISOString() ?? null,
  source: k.source,
});

@Injectable()
export class IssuerKeysAdminService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly keys: IssuerKeysService,
    private readonly audit: AuditService,
  ) {}

  async list(): Promise<IssuerKeyDto[]> {
    return (await this.keys.list()).map(toDto);
  }

  async rotate(actor: AdminActor): Promise<IssuerKeyDto[]> {
    if (this.config.isProduction || this.config.credentialIssuer.signer)
      throw new AppError(409, 'conflict', 'the issuer signer comes from VCI_ISSUER_KEY_FILE: replace the key and chain files and restart to rotate it');
    const keys = await this.keys.rotate();
    await this.audit.record(actor, 'credential_issuer_keys.rotate', 'credential_issuer_keys', 'all', {
      active: keys.filter((k) => k.status === 'active').map((k) => k.kid),
    });
    return keys.map(toDto);
  }
}
