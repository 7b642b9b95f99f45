import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { ForbiddenError, UnauthorizedError } from '../common/errors/app-error.js';
import { ACCESS_KEY, ACTOR_KEY, type AdminAccessLevel } from './admin-actor.js';
import { AdminTokensService } from './admin-tokens.service.js';

/** Bearer admin tokens: 401 without a valid token, 403 when the role may not act (support is read-only). */
@Injectable()
export class AdminAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: AdminTokensService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const level = this.reflector.getAllAndOverride<AdminAccessLevel | undefined>(ACCESS_KEY, [context.getHandler(), context.getClass()]);
    if (!level) return true;
    const req = context.switchToHttp().getRequest<Request & Record<symbol, unknown>>();
    const match = /^Bearer ([A-Za-z0-9._~+/=-]+)$/.exec(req.headers.authorization ?? '');
    if (!match) throw new UnauthorizedError('an admin bearer token is required');
    const actor = await this.tokens.authenticate(match[1]);
    if (!actor) throw new UnauthorizedError('the admin token is not valid');
    if (level === 'write' && actor.role !== 'admin') throw new ForbiddenError(`the ${actor.role} role is read-only`);
    req[ACTOR_KEY] = actor;
    return true;
  }
}
