import { type CanActivate, createParamDecorator, type ExecutionContext, Injectable } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { hasBody } from '../../../common/http/replayable-body.js';
import type { VerificationSessionEntity } from '../session/verification-session.entity.js';
import { VerificationSessionsService } from '../session/verification-sessions.service.js';
import { appTokenRequired } from '../verifier.errors.js';

const SESSION = Symbol('verificationSession');
type WithSession = Request & { [SESSION]?: VerificationSessionEntity };

/** The session the request's bearer token names, as it is now (404 unknown, 410 expired, 401 without a token). */
export function appSessionOf(req: Request, sessions: VerificationSessionsService): Promise<VerificationSessionEntity> {
  const match = /^Bearer ([A-Za-z0-9_-]{20,100})$/i.exec(req.headers.authorization ?? '');
  if (!match) return Promise.reject(appTokenRequired());
  return sessions.byAppToken(match[1]);
}

/**
 * Before the body parsers, on the session steps (/app/v1/session, as the scheme's manifest mounts it): a request without a live session is refused from its headers, before
 * a byte of its body is read (a chip or face upload is megabytes, and reading and parsing one cost 65-77 ms of CPU).
 * The guard reads the session again once the body is in: the step works on its state as it is then, and an upload
 * from a phone may take seconds.
 */
export function appSessionBeforeBody(sessions: VerificationSessionsService) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    // Without a body the guard's own check comes soon enough, and one lookup does.
    if (!hasBody(req)) return next();
    appSessionOf(req, sessions).then(
      () => next(),
      (e: unknown) => next(e),
    );
  };
}

/** The app authenticates each call with the session token it got when opening the session. */
@Injectable()
export class AppSessionGuard implements CanActivate {
  constructor(private readonly sessions: VerificationSessionsService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<WithSession>();
    req[SESSION] = await appSessionOf(req, this.sessions);
    return true;
  }
}

export const AppSession = createParamDecorator((_: unknown, ctx: ExecutionContext): VerificationSessionEntity => {
  return ctx.switchToHttp().getRequest<WithSession>()[SESSION]!;
});
