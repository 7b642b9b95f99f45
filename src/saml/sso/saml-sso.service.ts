import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../../common/errors/app-error.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { ExclusiveJobs } from '../../database/exclusive-jobs.js';
import type { BrokeredIdentity } from '../../broker/spi/eid-provider.js';
import { pickLocale } from '../../i18n/locales.js';
import type { MerchantEntity } from '../../merchants/merchant.entity.js';
import { MerchantsService } from '../../merchants/merchants.service.js';
import { pageLogoOf } from '../../merchants/logos/page-logo.js';
import { type InteractionHandoff, LoginHandoff } from '../../oidc/interaction/interaction-handoff.js';
import { merchantSector, pairwiseSubject } from '../../broker/spi/subjects/pairwise.js';
import { releasedClaims } from '../../verifier-claims/release.js';
import { toSamlAttributes } from '../../verifier-claims/saml-attributes.js';
import { buildAssertion, buildResponse } from '../assertion/saml-response.js';
import { signAssertion, signResponse } from '../assertion/saml-signer.js';
import { SamlKeysService } from '../keys/saml-keys.service.js';
import { postFormPage } from '../pages/post-form-page.js';
import { SAML_PATHS, samlEntityId } from '../saml-entity.js';
import { samlBadRequest, samlTransactionGone, samlUnknownMerchant } from '../saml.errors.js';
import { SamlArtifactsService } from '../artifact/saml-artifacts.service.js';
import { chooseBinding, endpointOf } from './binding.js';
import { type SamlBinding, type SamlRequest, SamlTransactionsService } from './saml-transactions.service.js';
import { pageSiteOf } from '../../common/pages/layout.js';

const PURGE_MS = 10 * 60_000;
const MAX_TARGET_LENGTH = 2048;

/**
 * Browser/POST single sign-on. Design (issue 12, "least invasive"): the front door turns
 * `GET /its/index.html?mid=…&TARGET=…` into an authorization request of the OIDC engine for that merchant
 * (its SAML scopes, `prompt=login`, `state` naming a sealed SAML transaction) and lets the engine start its
 * interaction. The broker pages, the eID schemes (the document verifier's phone flow included), the CSRF and
 * cookie binding of the interaction all run unchanged; only the end differs: the interaction service hands
 * the brokered identity to this class (InteractionHandoff) instead of finishing the engine's interaction,
 * and the answer is a signed samlp:Response posted to the registered consumer URL. No engine grant, code or
 * session is made for a SAML sign-in, so it never signs the user in to OIDC and cannot be redeemed there.
 * A parallel interaction of our own would have meant a second copy of the page flow and the verifier's
 * status polling, all keyed to the engine's interaction today.
 */
@Injectable()
@LoginHandoff()
export class SamlSsoService implements InteractionHandoff, OnModuleInit {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly merchants: MerchantsService,
    private readonly transactions: SamlTransactionsService,
    private readonly keys: SamlKeysService,
    private readonly artifacts: SamlArtifactsService,
    private readonly jobs: ExclusiveJobs,
  ) {}

  onModuleInit(): void {
    this.jobs.schedule('saml-purge', PURGE_MS, () => Promise.all([this.transactions.purgeExpired(), this.artifacts.purgeExpired()]));
  }

  /**
   * Express middleware ahead of the engine. `/its/index.html` is also the OIDC authorization endpoint: a SAML
   * request is told apart by `mid` or `providerId` without `client_id` or `response_type` (which every OIDC
   * request has).
   */
  frontDoor() {
    return (req: Request, _res: Response, next: NextFunction): void => {
      if (req.method !== 'GET' || req.path !== SAML_PATHS.sso || !isSamlRequest(req.query)) return next();
      this.begin(req).then(
        (engineUrl) => {
          req.url = req.originalUrl = engineUrl;
          next();
        },
        // Refused before any merchant is known: the error renderer's page, in the user's own language still.
        (err: unknown) => next(err),
      );
    };
  }

  /** Checks the SAML request, opens its transaction and answers the engine's authorization request URL. */
  private async begin(req: Request): Promise<string> {
    const q = singleValues(req.query as Record<string, unknown>);
    const merchant = await this.requestingMerchant(q);
    const saml = merchant?.saml;
    if (!merchant || !saml) throw samlUnknownMerchant();
    // Shibboleth's AuthnRequest profile names the SP (providerId) and its consumer URL (shire): both must be
    // the registered ones; the assertion only ever goes to the registered URL. With `mid` too, they must agree.
    if (q.providerId !== undefined && q.providerId !== saml.entity_id) throw samlBadRequest("providerId is not the merchant's entity ID");
    const { binding, url } = chooseBinding(saml, q.shire);
    const target = q.TARGET ?? q.target ?? null;
    if (target !== null && target.length > MAX_TARGET_LENGTH) throw samlBadRequest(`TARGET is longer than ${MAX_TARGET_LENGTH} characters`);
    const state = await this.transactions.begin(merchant.clientId, { target, consumerUrl: url, binding });
    const params = new URLSearchParams({
      client_id: merchant.clientId,
      response_type: 'code',
      // Never used: the interaction ends here, not with a redirect (the engine wants a registered one).
      redirect_uri: merchant.redirectUris[0],
      scope: saml.scope,
      state,
      // A SAML request always authenticates: no engine session is ever reused for it.
      prompt: 'login',
      // PSD2 merchants must send PKCE; the challenge is of a random verifier nobody keeps (no code is made).
      code_challenge: createHash('sha256').update(randomBytes(32)).digest('base64url'),
      code_challenge_method: 'S256',
      ...(q.ui_locale ? { ui_locale: q.ui_locale } : {}),
    });
    return `${SAML_PATHS.sso}?${params.toString()}`;
  }

  /**
   * `mid` (our client_id) when given; otherwise `providerId`, the merchant's registered entity ID, which is all
   * a Shibboleth SessionInitiator or a SimpleSAMLphp SP sends (they know us from metadata, not a client_id).
   */
  private requestingMerchant(q: Record<string, string | undefined>) {
    if (q.mid !== undefined) return this.merchants.findEnabled(q.mid);
    return q.providerId ? this.merchants.findEnabledBySamlEntityId(q.providerId) : Promise.resolve(undefined);
  }

  async owns(params: Readonly<Record<string, unknown>>): Promise<boolean> {
    return this.transactions.isLive(params.state, params.client_id);
  }

  async identified(req: Request, res: Response, params: Readonly<Record<string, unknown>>, _scheme: string, identity: BrokeredIdentity): Promise<void> {
    const { merchant, request } = await this.consume(params);
    const saml = merchant.saml!;
    const now = new Date();
    const key = await this.keys.signingKey();
    const artifact = request.binding === 'artifact';
    const assertion = buildAssertion({
      issuer: samlEntityId(this.config),
      audience: saml.entity_id,
      subject: this.subjectFor(merchant, identity.subject),
      amr: identity.amr,
      authTime: new Date(identity.authTime),
      attributes: toSamlAttributes(releasedClaims(identity, saml.scope.split(' '), now)),
      confirmation: artifact ? 'artifact' : 'bearer',
      now,
    });
    if (artifact) return this.redirectWithArtifact(res, merchant.clientId, request, signAssertion(assertion.xml, key));
    const response = buildResponse({ recipient: request.consumerUrl, status: 'Success', signedAssertions: [signAssertion(assertion.xml, key)], now });
    this.sendPostForm(req, res, merchant, params, request.consumerUrl, signResponse(response.xml, key), request.target);
  }

  /** A cancelled or failed sign-in is answered too, as a signed Response without assertion (Responder, RequestDenied). */
  async failed(req: Request, res: Response, params: Readonly<Record<string, unknown>>, error: string, description: string): Promise<void> {
    const { merchant, request } = await this.consume(params);
    // SAML 1.1's artifact profile carries assertions only: there is nothing to send a failure with, so the
    // user is told here (the merchant sees the user come back without an artifact).
    if (request.binding === 'artifact') throw new AppError(400, error, description);
    const response = buildResponse({
      recipient: request.consumerUrl,
      status: 'Responder',
      ...(error === 'access_denied' ? { subStatus: 'RequestDenied' as const } : {}),
      statusMessage: description,
      signedAssertions: [],
      now: new Date(),
    });
    this.sendPostForm(req, res, merchant, params, request.consumerUrl, signResponse(response.xml, await this.keys.signingKey()), request.target);
  }

  /**
   * Single use, and the settings are read again: a merchant disabled, or whose consumer URL changed, while
   * the user was on the broker pages gets nothing.
   */
  private async consume(params: Readonly<Record<string, unknown>>): Promise<{ merchant: MerchantEntity; request: SamlRequest & { binding: SamlBinding } }> {
    const clientId = String(params.client_id);
    const stored = await this.transactions.consume(params.state, clientId);
    const merchant = await this.merchants.findEnabled(clientId);
    const request = stored && { ...stored, binding: stored.binding ?? 'post' };
    if (!request || !merchant?.saml || endpointOf(merchant.saml, request.binding) !== request.consumerUrl) throw samlTransactionGone();
    return { merchant, request };
  }

  /**
   * Browser/Artifact: the signed assertion stays here (sealed, one minute, single use) and the browser goes to
   * the artifact receiver with SAMLart and TARGET (SAML 1.1 bindings §4.1.1); the merchant resolves it over
   * the SOAP back-channel (ArtifactResolutionService).
   */
  private async redirectWithArtifact(res: Response, clientId: string, request: SamlRequest, signedAssertion: string): Promise<void> {
    const url = new URL(request.consumerUrl);
    if (request.target !== null) url.searchParams.append('TARGET', request.target);
    url.searchParams.append('SAMLart', await this.artifacts.issue(clientId, signedAssertion));
    res.set('Cache-Control', 'no-store').set('Pragma', 'no-cache').redirect(303, url.toString());
  }

  /** The NameIdentifier of the merchant's subject type, the same value as its OIDC `sub`. */
  private subjectFor(merchant: MerchantEntity, subject: string): string {
    return merchant.subjectType === 'pairwise' ? pairwiseSubject(this.config.pairwiseSecret, merchantSector(merchant.redirectUris), subject) : subject;
  }

  /**
   * Answered directly, not by a redirect to a GET: the signed response never sits at a URL of its own. In the
   * language the broker pages chose (the same rule: request, browser, merchant's default).
   */
  private sendPostForm(
    req: Request,
    res: Response,
    merchant: MerchantEntity,
    params: Readonly<Record<string, unknown>>,
    action: string,
    responseXml: string,
    target: string | null,
  ): void {
    const locale = pickLocale(params.ui_locale, params.ui_locales, req.headers['accept-language'], merchant.defaultUiLocale ?? undefined);
    res.status(200).set('Cache-Control', 'no-store').set('Pragma', 'no-cache');
    res.type('html').send(
      postFormPage(pageSiteOf(this.config), locale, {
        action,
        samlResponse: Buffer.from(responseXml, 'utf8').toString('base64'),
        target,
        merchantName: merchant.name,
        logo: pageLogoOf(merchant),
      }),
    );
  }
}

function isSamlRequest(query: Record<string, unknown>): boolean {
  return (query.mid !== undefined || query.providerId !== undefined) && query.client_id === undefined && query.response_type === undefined;
}

/** Each parameter once: a repeated one (an array) is refused rather than one copy picked. */
function singleValues(query: Record<string, unknown>): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(query)) {
    if (typeof v !== 'string') throw samlBadRequest(`${k} must be given once`);
    out[k] = v;
  }
  return out;
}
