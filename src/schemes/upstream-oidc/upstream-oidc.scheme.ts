import { logger } from '../../common/logging/logger.js';
import { DEFAULT_LOCALE, htmlLang, type UiLocale } from '../../i18n/locales.js';
import type { Messages } from '../../i18n/messages.js';
import { ACR_EIDAS_HIGH, ACR_REQUEST_HIGH } from '../../broker/spi/acr.js';
import type { EidProvider, EidRequest, EidStep, ResumesRedirect, SupportsAcr } from '../../broker/spi/eid-provider.js';
import type { PendingRedirectsService } from '../../broker/spi/redirects/pending-redirects.service.js';
import type { UpstreamClientKeysService } from './keys/upstream-client-keys.service.js';
import { type ClaimMapper, createMappers, mapClaims, mapperProblems } from './mappers/index.js';
import { upstreamVerification } from './identity-assurance/upstream-verification.js';
import { brokeredAuthTime } from './upstream-auth-time.js';
import { upstreamFailure } from './upstream-failure.js';
import { oidc, UpstreamOidcClient } from './upstream-oidc.client.js';
import type { UpstreamSchemeSettings } from './upstream-scheme-settings.js';
import { upstreamSubject } from './upstream-subject.js';

export interface UpstreamSchemeDeps {
  pending: PendingRedirectsService;
  /** Our keys toward upstreams (private_key_jwt assertions). */
  keys: Pick<UpstreamClientKeysService, 'signingKey' | 'decryptionKey'>;
  /** `BASE_URL/its/eid/callback`: the one redirect URI registered at every upstream. */
  callbackUrl: string;
  subjectSecret: string;
  allowHttp: boolean;
  /** Outside production: a customer-test scheme may reach loopback (a local test upstream); nothing else private, ever. */
  allowLoopback: boolean;
}

interface PendingData {
  nonce: string;
  verifier: string;
  /** Epoch ms of our redirect to the upstream: an upstream login cannot be earlier unless it reused a session. */
  redirectedAt?: number;
}

const UNVERIFIED = 'the answer of the identification method could not be verified';
const UNREACHABLE = 'the identification method cannot be reached';
/** What an admin reads when a right secret is refused: many upstreams compare Basic credentials without form-decoding them (RFC 6749 2.3.1). */
const BASIC_REFUSED_HINT =
  'if the client secret is right, the upstream may not form-decode Basic credentials: set token_endpoint_auth_method client_secret_post';

/**
 * A generic upstream OpenID provider as an eID scheme (national and bank eIDs behind OIDC gateways):
 * authorization code with PKCE, `state` bound to our interaction by the broker and `nonce` kept with it,
 * the ID token checked in full, claims mapped by the scheme's ordered mappers.
 */
export class UpstreamOidcScheme implements EidProvider, SupportsAcr, ResumesRedirect {
  readonly id: string;
  readonly testOnly: boolean;
  private readonly client: UpstreamOidcClient;
  private readonly mappers: ClaimMapper[];

  constructor(
    readonly settings: UpstreamSchemeSettings,
    private readonly deps: UpstreamSchemeDeps,
  ) {
    this.id = settings.id;
    // A scheme against an upstream's test system must never run in production (the registry enforces it).
    this.testOnly = settings.environment === 'customer-test';
    this.client = new UpstreamOidcClient({
      ...settings,
      allowHttp: deps.allowHttp,
      keys: deps.keys,
      policy: { allowLoopback: deps.allowLoopback && settings.environment === 'customer-test' },
    });
    this.mappers = createMappers(settings.claimMappers);
    // A row saved under older rules may break today's: a refused regex gives no claim, and the admin learns why here.
    const stale = mapperProblems(settings.claimMappers);
    if (Object.keys(stale).length)
      logger.warn({ scheme: this.id, problems: stale }, 'stored claim mappers break the current rules; a refused regex mapper gives no claim');
  }

  displayName(_messages: Messages, locale: UiLocale = DEFAULT_LOCALE): string {
    const { labels } = this.settings;
    return labels[locale] ?? labels[DEFAULT_LOCALE] ?? Object.values(labels)[0] ?? this.id;
  }

  /** It can reach our high level when some upstream acr is mapped to eIDAS high. */
  supportsAcr(acr: string): boolean {
    return acr === ACR_REQUEST_HIGH && this.upstreamAcrsFor(ACR_EIDAS_HIGH).length > 0;
  }

  async start(request: EidRequest): Promise<EidStep> {
    let config: oidc.Configuration;
    try {
      config = await this.client.configuration();
    } catch (err) {
      const failure = upstreamFailure(err);
      logger.warn({ scheme: this.id, host: failure.host ?? this.host(), code: failure.code, reason: failure.reason }, 'upstream discovery failed');
      return { kind: 'failed', error: 'temporarily_unavailable', description: UNREACHABLE, reason: 'upstream_error' };
    }
    const nonce = oidc.randomNonce();
    const verifier = oidc.randomPKCECodeVerifier();
    const state = await this.deps.pending.create(request.interactionUid, this.id, { nonce, verifier, redirectedAt: Date.now() } satisfies PendingData);
    const params: Record<string, string> = {
      redirect_uri: this.deps.callbackUrl,
      scope: this.settings.scope,
      response_type: 'code',
      state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    };
    const acrValues = request.acrValues.includes(ACR_REQUEST_HIGH) ? this.upstreamAcrsFor(ACR_EIDAS_HIGH) : this.settings.acrValues;
    if (acrValues.length) params.acr_values = acrValues.join(' ');
    // The upstream must authenticate the person again beyond it (OpenID Connect Core 3.1.2.1); checked on the way back.
    if (request.maxAge !== undefined) params.max_age = String(request.maxAge);
    if (this.settings.passUiLocales) params.ui_locales = htmlLang(request.locale);
    // `eid:<id>` hints are ours (they pick the scheme); only a hint about the person goes on.
    if (this.settings.passLoginHint && request.loginHint && !request.loginHint.startsWith('eid:')) params.login_hint = request.loginHint;
    return { kind: 'redirect', url: oidc.buildAuthorizationUrl(config, params).href };
  }

  /** Nothing is posted to an upstream scheme's page; it only ever redirects. */
  async handle(request: EidRequest): Promise<EidStep> {
    return this.start(request);
  }

  async resume(request: EidRequest, pending: Record<string, unknown>, query: Record<string, string>): Promise<EidStep> {
    if (query.error) return this.upstreamError(query.error, query.error_description);
    const { nonce, verifier, redirectedAt } = pending as unknown as PendingData;
    try {
      const config = await this.client.configuration();
      const current = new URL(this.deps.callbackUrl);
      for (const [k, v] of Object.entries(query)) current.searchParams.set(k, v);
      const tokens = await oidc.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: verifier,
        expectedState: query.state,
        expectedNonce: nonce,
        idTokenExpected: true,
      });
      // openid-client decrypts a JWE when it can but takes a plain JWS too; a scheme that asked for encryption must not.
      if (this.settings.idTokenEncryption && tokens.id_token?.split('.').length !== 5) throw new Error('the upstream ID token is not encrypted');
      const idToken = tokens.claims()!;
      let claims: Record<string, unknown> = { ...idToken };
      if (this.settings.userinfo) {
        // The user-info subject must be the ID token's (openid-client checks it); the ID token's claims win.
        const info = await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub);
        claims = { ...info, ...idToken };
      }
      return this.identified(request, claims, typeof redirectedAt === 'number' ? new Date(redirectedAt) : undefined);
    } catch (err) {
      this.client.forget();
      const failure = upstreamFailure(err);
      const log = { scheme: this.id, host: failure.host ?? this.host(), code: failure.code, reason: failure.reason };
      if (failure.unavailable) {
        logger.warn(log, 'upstream unreachable');
        return { kind: 'failed', error: 'temporarily_unavailable', description: UNREACHABLE, reason: 'upstream_error' };
      }
      if (failure.code === 'invalid_client' && this.settings.tokenEndpointAuthMethod === 'client_secret_basic') {
        logger.warn({ ...log, hint: BASIC_REFUSED_HINT }, 'upstream answer refused');
      } else logger.warn(log, 'upstream answer refused');
      return { kind: 'failed', error: 'access_denied', description: UNVERIFIED, reason: 'upstream_error' };
    }
  }

  private identified(request: EidRequest, claims: Record<string, unknown>, redirectedAt?: Date): EidStep {
    const subjectValue = claims[this.settings.subjectClaim];
    if (typeof subjectValue !== 'string' || !subjectValue) {
      logger.warn({ scheme: this.id, claim: this.settings.subjectClaim }, 'upstream identity without its subject claim');
      return { kind: 'failed', error: 'access_denied', description: UNVERIFIED, reason: 'upstream_error' };
    }
    const issuer = String(claims.iss);
    const mapped = mapClaims(this.mappers, claims);
    // acr only when the upstream reached a level we map; an unknown upstream acr gives none.
    const acr = typeof claims.acr === 'string' ? this.settings.acrMap[claims.acr] : undefined;
    const when = brokeredAuthTime(claims.auth_time, { redirectedAt, callbackAt: new Date(), maxAge: request.maxAge });
    if (when.kind === 'stale') {
      logger.warn({ scheme: this.id, age_seconds: when.ageSeconds, max_age: request.maxAge }, 'upstream login older than the max_age asked for');
      return {
        kind: 'failed',
        error: 'access_denied',
        description: 'the identification method did not authenticate the user again within max_age',
        reason: 'upstream_error',
      };
    }
    if (when.source === 'callback' && claims.auth_time !== undefined) logger.info({ scheme: this.id }, 'upstream auth_time replaced by the callback time');
    const authTime = when.authTime;
    const assurance = upstreamVerification({ verifiedClaims: claims.verified_claims, issuer, authTime, test: this.testOnly });
    // Never fails the login: the login itself is then the evidence (the problem names a place and a rule, no value).
    if (assurance.ignored) logger.warn({ scheme: this.id, problem: assurance.ignored }, 'upstream verified_claims ignored');
    return {
      kind: 'identified',
      identity: {
        subject: upstreamSubject(this.deps.subjectSecret, this.id, issuer, this.settings.subjectMode, subjectValue),
        claims: mapped.claims,
        birthDate: mapped.birthDate,
        acr,
        amr: [...this.settings.amr],
        authTime,
        upstreamIssuer: issuer,
        verification: assurance.verification,
      },
    };
  }

  /** `access_denied` from the upstream is the user saying no (or cancelling); anything else is its failure. */
  private upstreamError(error: string, description?: string): EidStep {
    logger.info({ scheme: this.id, error, error_description: description?.slice(0, 200) }, 'upstream answered with an error');
    if (error === 'access_denied')
      return { kind: 'failed', error: 'access_denied', description: 'the user cancelled the sign-in at the identification method', reason: 'cancelled' };
    const unavailable = error === 'temporarily_unavailable' || error === 'server_error';
    return {
      kind: 'failed',
      error: unavailable ? 'temporarily_unavailable' : 'access_denied',
      description: 'the identification method could not identify the user',
      reason: 'upstream_error',
    };
  }

  private host(): string {
    return new URL(this.settings.issuer).host;
  }

  private upstreamAcrsFor(ours: string): string[] {
    return Object.entries(this.settings.acrMap)
      .filter(([, mapped]) => mapped === ours)
      .map(([upstream]) => upstream);
  }
}
