import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { discovered, extensionPoint } from '../../common/discovery/discovered.js';
import type { AppError } from '../../common/errors/app-error.js';
import type Provider from 'oidc-provider';
import { type Account, type Client, errors, type KoaContextWithOIDC } from 'oidc-provider';

export type BackchannelAuthenticationRequest = InstanceType<Provider['BackchannelAuthenticationRequest']>;

/**
 * What the engine's CIBA feature (features.ciba) asks of the CIBA module, plus the answers to CIBA polls the
 * engine does not give (slow_down, expired_token; ciba-answers.ts). The CIBA module
 * marks its provider @CibaHooksProvider(); `oidc/` never imports it (it sits above oidc/ and uses the engine to complete requests).
 */
export interface CibaHooks {
  processLoginHint(ctx: KoaContextWithOIDC, loginHint: string): Promise<string | undefined>;
  processLoginHintToken(ctx: KoaContextWithOIDC, loginHintToken: string): Promise<string | undefined>;
  verifyUserCode(ctx: KoaContextWithOIDC, account: Account, userCode?: string): Promise<void>;
  validateBindingMessage(ctx: KoaContextWithOIDC, bindingMessage?: string): Promise<void>;
  validateRequestContext(ctx: KoaContextWithOIDC, requestContext?: string): Promise<void>;
  triggerAuthenticationDevice(ctx: KoaContextWithOIDC, request: BackchannelAuthenticationRequest, account: Account, client: Client): Promise<void>;
  /**
   * A CIBA poll of an authenticated client, after the engine answered it: the error that replaces the engine's
   * answer (slow_down, expired_token), or undefined to keep it.
   */
  answerPoll(authReqId: string, clientId: string, engineError: 'authorization_pending' | 'invalid_grant'): Promise<AppError | undefined>;
}

const ANSWERED = Symbol('ciba answered here');
const ADDED = Symbol('ciba answer members');

/** Members the CIBA module adds to the engine's 2.6 answer of this request (extension members: a client ignores those it does not know). */
export function addToAnswer(ctx: KoaContextWithOIDC, members: Record<string, string>): void {
  const state = ctx.state as Record<symbol, Record<string, string> | undefined>;
  state[ADDED] = { ...state[ADDED], ...members };
}

export function addedToAnswer(ctx: KoaContextWithOIDC): Record<string, string> | undefined {
  return (ctx.state as Record<symbol, Record<string, string> | undefined>)[ADDED];
}

/**
 * Ends the engine's handling of a backchannel request with `answer` (200), from inside a hook: the engine
 * offers no other way out of its stack. Thrown as an error the engine's error handler catches; ciba-answers.ts
 * then puts the answer in place of the error body.
 */
export function answerHere(ctx: KoaContextWithOIDC, answer: Record<string, unknown>): never {
  (ctx.state as Record<symbol, unknown>)[ANSWERED] = answer;
  throw new errors.OIDCProviderError(400, 'answered_by_ciba_module');
}

export function answeredHere(ctx: KoaContextWithOIDC): Record<string, unknown> | undefined {
  return (ctx.state as Record<symbol, Record<string, unknown> | undefined>)[ANSWERED];
}

/** Marks the CIBA module's provider of the engine's CIBA hooks (exactly one). */
export const CibaHooksProvider = extensionPoint();

@Injectable()
export class CibaHooksSlot implements OnModuleInit {
  private hooks?: CibaHooks;

  constructor(private readonly discovery: DiscoveryService) {}

  onModuleInit(): void {
    const found = discovered<CibaHooks>(this.discovery, CibaHooksProvider);
    if (found.length > 1) throw new Error(`${found.length} providers are marked @CibaHooksProvider(); the engine takes one`);
    this.hooks = found[0];
  }

  get(): CibaHooks {
    if (!this.hooks) throw new Error('the CIBA module has not registered its hooks');
    return this.hooks;
  }

  /** The engine's features.ciba: delegating to the registered hooks at call time (the engine is built first). */
  engineFeature() {
    return {
      enabled: true,
      // The engine refuses push; push merchants are shown to it as ping (merchant-client.ts) and discovery adds push.
      deliveryModes: ['poll', 'ping'],
      processLoginHint: (ctx: KoaContextWithOIDC, v: string) => this.get().processLoginHint(ctx, v),
      processLoginHintToken: (ctx: KoaContextWithOIDC, v: string) => this.get().processLoginHintToken(ctx, v),
      verifyUserCode: (ctx: KoaContextWithOIDC, a: Account, v?: string) => this.get().verifyUserCode(ctx, a, v),
      validateBindingMessage: (ctx: KoaContextWithOIDC, v?: string) => this.get().validateBindingMessage(ctx, v),
      validateRequestContext: (ctx: KoaContextWithOIDC, v?: string) => this.get().validateRequestContext(ctx, v),
      triggerAuthenticationDevice: (ctx: KoaContextWithOIDC, r: BackchannelAuthenticationRequest, a: Account, c: Client) =>
        this.get().triggerAuthenticationDevice(ctx, r, a, c),
    };
  }
}
