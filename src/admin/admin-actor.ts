import { createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Request } from 'express';
import type { AdminRole } from './admin-token.entity.js';

export interface AdminActor {
  /** Token id, or `env` for the ADMIN_API_TOKEN from the environment. */
  tokenId: string;
  label: string;
  role: AdminRole;
}

export const ACTOR_KEY = Symbol('adminActor');
export const ACCESS_KEY = 'adminAccess';
export type AdminAccessLevel = 'read' | 'write';

/** Marks a route as admin API: `read` for admin and support, `write` for admin only. */
export const AdminAccess = (level: AdminAccessLevel) => SetMetadata(ACCESS_KEY, level);

export const Actor = createParamDecorator((_: unknown, ctx: ExecutionContext): AdminActor => {
  return ctx.switchToHttp().getRequest<Request & { [ACTOR_KEY]: AdminActor }>()[ACTOR_KEY];
});
