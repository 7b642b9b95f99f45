import { type CanActivate, createParamDecorator, type ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { DocumentEvidence } from '../../broker/spi/document-evidence/document-evidence.js';

/** What an app session ended with: its verification record and merchant, or null while it has none. */
export type SessionRecord = { recordId: string; clientId: string } | null;

const RECORD = Symbol('appSessionRecord');
type WithRecord = Request & { [RECORD]?: SessionRecord };

/**
 * The verifier app authenticates with its session token, as on every step of the app API: the document verifier
 * judges it (through the broker SPI; 401 without, 404 unknown, 410 expired) and names the record the session ended
 * with.
 */
@Injectable()
export class AppSessionRecordGuard implements CanActivate {
  constructor(private readonly evidence: DocumentEvidence) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<WithRecord>();
    req[RECORD] = (await this.evidence.appSessionRecord(req)) ?? null;
    return true;
  }
}

export const AppSessionRecord = createParamDecorator((_: unknown, ctx: ExecutionContext): SessionRecord => {
  return ctx.switchToHttp().getRequest<WithRecord>()[RECORD] ?? null;
});
