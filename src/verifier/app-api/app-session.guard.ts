import { type CanActivate, createParamDecorator, type ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type { VerificationSessionEntity } from '../session/verification-session.entity.js';
import { VerificationSessionsService } from '../session/verification-sessions.service.js';
import { appTokenRequired } from '../verifier.errors.js';

const SESSION = Symbol('verificationSession');

/** The app authenticates each call with the session token it got when opening the session. */
@Injectable()
export class AppSessionGuard implements CanActivate {
  constructor(private readonly sessions: VerificationSessionsService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request & { [SESSION]?: VerificationSessionEntity }>();
    const match = /^Bearer ([A-Za-z0-9_-]{20,100})$/i.exec(req.headers.authorization ?? '');
    if (!match) throw appTokenRequired();
    req[SESSION] = await this.sessions.byAppToken(match[1]);
    return true;
  }
}

export const AppSession = createParamDecorator((_: unknown, ctx: ExecutionContext): VerificationSessionEntity => {
  return (ctx.switchToHttp().getRequest<Request & { [SESSION]: VerificationSessionEntity }>())[SESSION];
});
