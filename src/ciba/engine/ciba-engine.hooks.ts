import { Inject, Injectable } from '@nestjs/common';
import { errors as jwtErrors, jwtVerify } from 'jose';
import { errors, type Account, type Client, type KoaContextWithOIDC } from 'oidc-provider';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { BindingMessageError, parseBindingMessage, type BindingMessage } from '../../broker/spi/request/binding-message.js';
import { addToAnswer, answerHere, type BackchannelAuthenticationRequest, type CibaHooks, CibaHooksProvider } from '../../oidc/provider/ciba-hooks.js';
import { APP_STATUSES, type AppStatus } from '../bindings/app-binding.entity.js';
import { type AppBinding, AppBindingsService } from '../bindings/app-bindings.service.js';
import { type CibaError, expiredToken, slowDown } from '../ciba.errors.js';
import { CibaRequestsService } from '../requests/ciba-requests.service.js';
import { ProvisioningCodes } from '../requests/provisioning-codes.js';
import { CibaCancelService } from './ciba-cancel.service.js';
import { assertFapiCibaBinding, assertFapiCibaHintToken } from './fapi-ciba-rules.js';

/** Who a request goes to, worked out while the engine validates it (one per request context). */
type Target = { kind: 'provisioning'; appId: string; userStatus: AppStatus } | { kind: 'authentication'; appId: string; binding: AppBinding };

interface RequestState {
  binding: BindingMessage;
  target?: Target;
}

const PROVISIONING_ACCOUNT = 'ciba-provisioning';

/**
 * The engine's CIBA hooks (features.ciba): the binding message decides the request type (spec 4.7), the hint
 * names the app (login_hint = appId) or the person (id_token_hint, login_hint_token), the app must be bound and
 * active at this merchant, the user_code is checked when the merchant registered for it, and the request is
 * stored for the app to pick up.
 */
@Injectable()
@CibaHooksProvider()
export class CibaEngineHooks implements CibaHooks {
  private readonly states = new WeakMap<object, RequestState>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly bindings: AppBindingsService,
    private readonly requests: CibaRequestsService,
    private readonly cancels: CibaCancelService,
    private readonly provisioningCodes: ProvisioningCodes,
  ) {}

  private state(ctx: KoaContextWithOIDC): RequestState {
    let s = this.states.get(ctx);
    if (!s) this.states.set(ctx, (s = { binding: {} }));
    return s;
  }

  async validateBindingMessage(ctx: KoaContextWithOIDC, value?: string): Promise<void> {
    let binding: BindingMessage = {};
    if (value !== undefined) {
      try {
        binding = parseBindingMessage(value);
      } catch (e) {
        if (e instanceof BindingMessageError) throw new errors.InvalidBindingMessage(e.message);
        throw e;
      }
    }
    assertFapiCibaBinding(ctx.oidc.client, binding, value !== undefined);
    if (binding.operation === 'cancel') {
      // Runs after client authentication (the engine's order), before any hint is needed: nothing new is made.
      answerHere(ctx, await this.cancels.cancel(ctx.oidc.client!.clientId, binding.authReqId!));
    }
    if (binding.userStatus !== undefined && !(APP_STATUSES as readonly string[]).includes(binding.userStatus))
      throw new errors.InvalidBindingMessage(`binding_message userStatus must be ${APP_STATUSES.join(' or ')}`);
    this.state(ctx).binding = binding;
  }

  /** request_context is not used; requested_expiry is checked here, before the engine sets the expiry from it. */
  async validateRequestContext(ctx: KoaContextWithOIDC): Promise<void> {
    const raw = ctx.oidc.params?.requested_expiry;
    if (raw !== undefined && Number(raw) > this.config.ciba.maxExpirySeconds)
      throw new errors.InvalidRequest(`requested_expiry must be at most ${this.config.ciba.maxExpirySeconds} seconds`);
  }

  async processLoginHint(ctx: KoaContextWithOIDC, loginHint: string): Promise<string | undefined> {
    return this.resolveApp(ctx, loginHint);
  }

  /**
   * A login_hint_token is a JWT the merchant signs with its client secret (HS256): `app_id` names the app or
   * `sub` the person (a subject this service issued to the merchant); `exp` is required.
   */
  async processLoginHintToken(ctx: KoaContextWithOIDC, token: string): Promise<string | undefined> {
    const client = ctx.oidc.client!;
    assertFapiCibaHintToken(client);
    if (!client.clientSecret) throw new errors.InvalidRequest('login_hint_token needs a merchant with a client secret (HS256)');
    let payload: { app_id?: unknown; sub?: unknown };
    try {
      ({ payload } = await jwtVerify(token, new TextEncoder().encode(client.clientSecret), { algorithms: ['HS256'], requiredClaims: ['exp'] }));
    } catch (e) {
      if (e instanceof jwtErrors.JWTExpired) throw new errors.ExpiredLoginHintToken('the login_hint_token has expired');
      throw new errors.InvalidRequest('login_hint_token must be a JWT signed with the client secret (HS256) carrying exp');
    }
    if (typeof payload.app_id === 'string') return this.resolveApp(ctx, payload.app_id);
    if (typeof payload.sub === 'string') return payload.sub; // resolved to its app in verifyUserCode, like id_token_hint
    throw new errors.InvalidRequest('login_hint_token must carry app_id or sub');
  }

  private async resolveApp(ctx: KoaContextWithOIDC, appId: string): Promise<string> {
    const state = this.state(ctx);
    const { binding } = state;
    if (binding.appId && binding.appId !== appId) throw new errors.InvalidRequest('the hint and the binding_message appId name different apps');
    if (binding.requestType === 'Provisioning') {
      state.target = { kind: 'provisioning', appId, userStatus: (binding.userStatus ?? 'active') as AppStatus };
      // The person is not known before the verification; the engine needs an account id meanwhile.
      return PROVISIONING_ACCOUNT;
    }
    const bound = await this.bindings.find(ctx.oidc.client!.clientId, appId);
    if (!bound || bound.status !== 'active') throw new errors.UnknownUserId('no active app with this id is provisioned for this merchant');
    state.target = { kind: 'authentication', appId, binding: bound };
    return bound.subject;
  }

  /** Runs after the account is known, for every kind of hint: resolves id_token_hint and `sub` hints to the bound app. */
  async verifyUserCode(ctx: KoaContextWithOIDC, account: Account, userCode?: string): Promise<void> {
    const state = this.state(ctx);
    if (!state.target) {
      if (state.binding.requestType === 'Provisioning') throw new errors.InvalidRequest('a provisioning request names its app with login_hint (the appId)');
      const bound = await this.bindings.findBySubject(ctx.oidc.client!.clientId, account.accountId);
      if (!bound) throw new errors.UnknownUserId('no active app is provisioned for this user at this merchant');
      state.target = { kind: 'authentication', appId: bound.appId, binding: bound };
    }
    const target = state.target;
    // A user code is chosen in the app at provisioning: it can only be asked for once the app is bound.
    if (target.kind !== 'authentication' || !ctx.oidc.client!.backchannelUserCodeParameter) return;
    if (!userCode) throw new errors.MissingUserCode('user_code is required for this merchant');
    if (!(await this.bindings.userCodeMatches(target.binding, userCode))) throw new errors.InvalidUserCode('user_code does not match');
  }

  /**
   * Stores the request for the app. A provisioning gets a one-time code, answered to the merchant alone
   * (`provisioning_code`, provisioning-codes.ts): the merchant shows it to its user, and only an app that
   * presents it sees and answers the request.
   */
  async triggerAuthenticationDevice(ctx: KoaContextWithOIDC, request: BackchannelAuthenticationRequest, _account: Account, client: Client): Promise<void> {
    const state = this.state(ctx);
    const target = state.target!;
    const params = ctx.oidc.params as Record<string, string | undefined>;
    const code = target.kind === 'provisioning' ? this.provisioningCodes.issue() : undefined;
    await this.requests.create(
      client.clientId,
      target.kind,
      this.bindings.appKey(target.appId),
      {
        authReqId: request.jti,
        appId: target.appId,
        merchantName: client.clientName ?? client.clientId,
        ...(target.kind === 'authentication' ? { subject: target.binding.subject } : { userStatus: target.userStatus }),
        ...(code ? { provisioningCodeHash: code.hash } : {}),
        binding: state.binding,
        scopes: (request.scope ?? '').split(' ').filter(Boolean),
        acrValues: (params.acr_values ?? '').split(' ').filter(Boolean),
        ...(params.client_notification_token ? { notificationToken: params.client_notification_token } : {}),
      },
      new Date(Date.now() + request.expiration * 1000),
    );
    if (code) addToAnswer(ctx, { provisioning_code: code.code });
  }

  /** Only a pending request gets slow_down: a result that is ready is answered however soon it is asked for. */
  async answerPoll(authReqId: string, clientId: string, engineError: 'authorization_pending' | 'invalid_grant'): Promise<CibaError | undefined> {
    const verdict = await this.requests.pollVerdict(authReqId, clientId);
    if (verdict.kind === 'expired') return expiredToken();
    if (verdict.kind === 'slow_down' && engineError === 'authorization_pending') return slowDown(verdict.interval);
    return undefined;
  }
}
