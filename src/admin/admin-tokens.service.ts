import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DataSource, IsNull, Repository } from 'typeorm';
import { constantTimeEqual, sha256Hex } from '../common/crypto/constant-time.js';
import { NotFoundError } from '../common/errors/app-error.js';
import { APP_CONFIG, type AppConfig } from '../config/load-config.js';
import type { AdminActor } from './admin-actor.js';
import { AdminTokenEntity, type AdminRole } from './admin-token.entity.js';
import { AuditService } from './audit.service.js';

export interface IssuedAdminToken {
  id: string;
  token: string;
  role: AdminRole;
  label: string;
}

@Injectable()
export class AdminTokensService {
  private readonly tokens: Repository<AdminTokenEntity>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    dataSource: DataSource,
    private readonly audit: AuditService,
  ) {
    this.tokens = dataSource.getRepository(AdminTokenEntity);
  }

  /**
   * First start without ADMIN_API_TOKEN: generate an admin token, store its hash and hand it back once
   * so that start-up can print it. Later starts find a token and return nothing.
   */
  async ensureInitialToken(): Promise<string | undefined> {
    if (this.config.adminApiToken) return undefined;
    if ((await this.tokens.count()) > 0) return undefined;
    const token = newToken();
    await this.tokens.insert({ tokenSha256: sha256Hex(token), role: 'admin', label: 'initial admin token' });
    return token;
  }

  async authenticate(presented: string): Promise<AdminActor | undefined> {
    if (this.config.adminApiToken && constantTimeEqual(presented, this.config.adminApiToken)) {
      return { tokenId: 'env', label: 'ADMIN_API_TOKEN', role: 'admin' };
    }
    // The lookup is by SHA-256 of a 256-bit random token: the index compare leaks nothing useful.
    const row = await this.tokens.findOneBy({ tokenSha256: sha256Hex(presented), revokedAt: IsNull() });
    return row ? { tokenId: row.id, label: row.label, role: row.role } : undefined;
  }

  async issue(role: AdminRole, label: string, actor: AdminActor): Promise<IssuedAdminToken> {
    const token = newToken();
    const row = await this.tokens.save(this.tokens.create({ tokenSha256: sha256Hex(token), role, label }));
    await this.audit.record(actor, 'admin_token.issue', 'admin_token', row.id, { role, label });
    return { id: row.id, token, role, label };
  }

  async list(): Promise<AdminTokenEntity[]> {
    return this.tokens.find({ order: { createdAt: 'ASC' } });
  }

  async revoke(id: string, actor: AdminActor): Promise<void> {
    const row = await this.tokens.findOneBy({ id, revokedAt: IsNull() });
    if (!row) throw new NotFoundError('admin token');
    row.revokedAt = new Date();
    await this.tokens.save(row);
    await this.audit.record(actor, 'admin_token.revoke', 'admin_token', id, {});
  }
}

function newToken(): string {
  return `adm_${randomBytes(32).toString('base64url')}`;
}
