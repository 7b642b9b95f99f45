import type { Adapter } from 'oidc-provider';
import type { DataSource } from 'typeorm';
import { GrantRevocation } from './grant-revocation.js';
import { RedisAdapter } from './redis-adapter.js';
import type { RedisModelStore } from './redis-model-store.js';
import { TypeOrmAdapter } from './typeorm-adapter.js';

/**
 * The engine's models that live in Redis when REDIS_URL is set: each lives minutes to hours, is read and
 * written on the hot path of a login or a code exchange, and losing them with Redis costs a user one new
 * login (or a merchant one refresh), nothing more. Access tokens are among them: they live 15 minutes
 * (ACCESS_TOKEN_TTL_SECONDS) and a merchant whose token is lost uses its refresh token.
 *
 * Everything else stays in the database, which is backed up and survives restarts: grants and refresh
 * tokens (they live for weeks), and the CIBA backchannel requests, whose completion is written in one
 * database transaction with our own CIBA request state and the callback outbox row (ciba-completion
 * service) — in Redis that write could no longer be all or nothing.
 */
export const REDIS_MODELS: ReadonlySet<string> = new Set([
  'Session',
  'Interaction',
  'AuthorizationCode',
  'PushedAuthorizationRequest',
  'ReplayDetection',
  'AccessToken',
  'ClientCredentials',
]);

export interface AdapterFactoryOptions {
  dataSource: DataSource;
  /** Null without REDIS_URL: every model in the database, as before. */
  redis: RedisModelStore | null;
  replayRetentionSeconds: number;
}

/** The engine's adapter per model: Redis for the short-lived models when there is a Redis, else the database. */
export function engineAdapters({ dataSource, redis, replayRetentionSeconds }: AdapterFactoryOptions): (model: string) => Adapter {
  const revocation = new GrantRevocation(dataSource, redis);
  return (model) =>
    redis && REDIS_MODELS.has(model)
      ? new RedisAdapter(model, redis, { replayRetentionSeconds, revocation })
      : new TypeOrmAdapter(model, dataSource, { replayRetentionSeconds, revocation, readLoginWithGrant: model === 'Grant' });
}
