import type Provider from 'oidc-provider';
import type { Counter } from 'prom-client';

/** The engine's events worth counting; the `.error` ones are labelled with the OAuth error code (a fixed set). */
const EVENTS = [
  'interaction.started',
  'interaction.ended',
  'authorization.accepted',
  'authorization.success',
  'authorization.error',
  'grant.success',
  'grant.error',
  'grant.revoked',
  'backchannel_authentication.error',
  'pushed_authorization_request.success',
  'pushed_authorization_request.error',
  'userinfo.error',
  'revocation.error',
  'introspection.error',
  'end_session.success',
  'end_session.error',
  'backchannel.success',
  'backchannel.error',
  'server_error',
] as const;

const errorCode = (err: unknown): string => {
  const code = (err as { error?: unknown } | undefined)?.error;
  return typeof code === 'string' && /^[a-z_]{1,40}$/.test(code) ? code : 'other';
};

/**
 * The engine is rebuilt when the signing keys change (OidcProviderService), so listeners are attached to
 * each engine the first time it is seen; the WeakSet never keeps an old engine alive.
 */
export class EngineEventCounter {
  private readonly seen = new WeakSet<Provider>();

  constructor(private readonly counter: Counter<'event' | 'error'>) {}

  watch(engine: Provider | undefined): void {
    if (!engine || this.seen.has(engine)) return;
    this.seen.add(engine);
    // The engine is a Koa application, an EventEmitter; its typings list the events per overload.
    const emitter = engine as unknown as NodeJS.EventEmitter;
    for (const event of EVENTS) {
      const isError = event.endsWith('.error') || event === 'server_error';
      // Error events are (ctx, err); server_error too. Other events carry no label of interest.
      emitter.on(event, (...args: unknown[]) => this.counter.inc({ event, error: isError ? errorCode(args[1]) : '' }));
    }
  }
}
