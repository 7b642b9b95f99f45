import { Injectable } from '@nestjs/common';
import type { AdminActor } from './admin-actor.js';
import { AdminTokensService } from './admin-tokens.service.js';
import { AuditService } from './audit.service.js';
import type { AdminTokenDto, IssueAdminTokenDto, IssuedAdminTokenDto } from './dto/admin-token.dto.js';
import type { AuditPageDto, AuditQueryDto } from './dto/audit-record.dto.js';

/** The admin API's own resources (tokens, audit trail), mapped to response DTOs. */
@Injectable()
export class AdminService {
  constructor(
    private readonly tokens: AdminTokensService,
    private readonly audits: AuditService,
  ) {}

  issueToken(dto: IssueAdminTokenDto, actor: AdminActor): Promise<IssuedAdminTokenDto> {
    return this.tokens.issue(dto.role, dto.label, actor);
  }

  async listTokens(): Promise<AdminTokenDto[]> {
    return (await this.tokens.list()).map((t) => ({
      id: t.id,
      role: t.role,
      label: t.label,
      created_at: t.createdAt.toISOString(),
      revoked_at: t.revokedAt?.toISOString() ?? null,
    }));
  }

  revokeToken(id: string, actor: AdminActor): Promise<void> {
    return this.tokens.revoke(id, actor);
  }

  async audit(query: AuditQueryDto): Promise<AuditPageDto> {
    const filter = { ...(query.target_type && { targetType: query.target_type }), ...(query.target_id && { targetId: query.target_id }) };
    const [rows, total] = await this.audits.list(filter, query.per_page, (query.page - 1) * query.per_page);
    return {
      page: query.page,
      per_page: query.per_page,
      total,
      items: rows.map((r) => ({
        id: r.id,
        actor: r.actor,
        actor_role: r.actorRole,
        action: r.action,
        target_type: r.targetType,
        target_id: r.targetId,
        changes: r.changes,
        at: r.at.toISOString(),
      })),
    };
  }
}
