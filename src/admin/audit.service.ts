import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager, Repository } from 'typeorm';
import type { AdminActor } from './admin-actor.js';
import { AuditRecordEntity } from './audit-record.entity.js';

@Injectable()
export class AuditService {
  private readonly records: Repository<AuditRecordEntity>;

  constructor(dataSource: DataSource) {
    this.records = dataSource.getRepository(AuditRecordEntity);
  }

  /** Writes one audit record; pass the transaction's manager so the record and the change commit together. */
  async record(
    actor: AdminActor,
    action: string,
    targetType: string,
    targetId: string,
    changes: Record<string, unknown>,
    manager?: EntityManager,
  ): Promise<void> {
    const repo = manager ? manager.getRepository(AuditRecordEntity) : this.records;
    await repo.insert({ actor: `${actor.label} (${actor.tokenId})`, actorRole: actor.role, action, targetType, targetId, changes: changes as never });
  }

  /** An access by someone other than an admin (a merchant fetching an auth file): who, what and when, never content. */
  async recordAccess(actor: string, actorRole: string, action: string, targetType: string, targetId: string, details: Record<string, unknown>): Promise<void> {
    await this.records.insert({ actor, actorRole, action, targetType, targetId, changes: details as never });
  }

  async list(filter: { targetType?: string; targetId?: string }, limit: number, offset: number): Promise<[AuditRecordEntity[], number]> {
    return this.records.findAndCount({ where: filter, order: { at: 'DESC' }, take: limit, skip: offset });
  }
}
