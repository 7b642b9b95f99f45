import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { ExclusiveJobs } from '../../database/exclusive-jobs.js';
import type { BrokeredIdentity } from '../../broker/spi/eid-provider.js';
import { type LoginAnswer, LoginFrontDoor, type OwnedLogin } from '../../broker/login/login-front-doors.js';
import { LoginRequests } from '../../broker/login/login-requests.js';
import type { MerchantEntity } from '../../merchants/merchant.entity.js';
import { MerchantsService } from '../../merchants/merchants.service.js';
import { pageLogoOf } from '../../merchants/logos/page-logo.js';
import { merchantSector, pairwiseSubject } from '../../broker/spi/subjects/pairwise.js';
import { releasedClaims } from '../../verifier-claims/release.js';
import { toSamlAttributes } from '../../verifier-claims/saml-attributes.js';
import { buildAssertion, buildResponse } from '../assertion/saml-response.js';
import { signAssertion, signResponse } from '../assertion/saml-signer.js';
import { SamlKeysService } from '../keys/saml-keys.service.js';
import { postFormPage } from '../pages/post-form-page.js';
import { samlEntityId } from '../saml-entity.js';
import { samlBadRequest, samlTransactionGone, samlUnknownMerchant } from '../saml.errors.js';
import { SamlArtifactsService } from '../artifact/saml-artifacts.service.js';
import { chooseBinding, endpointOf } from './binding.js';
import { type SamlBinding, type SamlRequest, SamlTransactionsService } from './saml-transactions.service.js';
import { pageSiteOf } from '../../common/pages/layout.js';

const PURGE_MS = 10 * 60_000;
const MAX_TARGET_LENGTH = 2048;
const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

/** The front door's name in the broker core: the logins it starts come back to it by this name. */
const FRONT_DOOR = 'saml';

/**
 * Browser/POST and Browser/Artifact single sign-on. The front door checks the SAML request, keeps it as a sealed
 * SAML transaction and starts a brokered login through the broker core (LoginRequests.begin: the merchant's SAML
 * scopes, `prompt=login`, the transaction as its reference), whose answer is where the browser goes next. The broker
 * pages, the eID schemes (the document verifier's phone flow included), the CSRF and cookie binding all run as for
 * OIDC, on the engine's interaction that carries the login; only the end differs: the core hands the identity (or the
 * failure) to this front door by its name, and the answer, as data, is a signed samlp:Response posted to the
 * registered consumer URL or an artifact redirect. No engine grant, code or session is made for a SAML sign-in, so it
 * never signs the user in to OIDC and cannot be redeemed there.
 */
@Injectable()
@LoginFrontDoor(FRONT_DOOR)
export class SamlSsoService implements LoginFrontDoor, OnModuleInit {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly merchants: MerchantsService,
    private readonly transactions: SamlTransactionsService,
    private readonly keys: SamlKeysService,
    private readonly artifacts: SamlArtifactsService,
    private readonly jobs: ExclusiveJobs,
    private readonly logins: LoginRequests,
  ) {}

  onModuleInit(): void {
    this.jobs.schedule('saml-purge', PURGE_MS, () => Promise.all([this.transactions.purgeExpired(), this.artifacts.purgeExpired()]));
  }

  /** Checks the SAML request, opens its transaction and starts the login; answers where the browser goes (303). */
  async begin(query: Record<string, unknown>): Promise<{ location: string }> {
    const q = singleValues(query);
    const merchant = await this.requestingMerchant(q);
    const saml = merchant?.saml;
    if (!merchant || !saml) throw samlUnknownMerchant();
    // Shibboleth's AuthnRequest profile names the SP (providerId) and its consumer URL (shire): both must be
    // the registered ones; the assertion only ever goes to the registered URL. With `mid` too, they must agree.
    if (q.providerId !== undefined && q.providerId !== saml.entity_id) throw samlBadRequest("providerId is not the merchant's entity ID");
    const { binding, url } = chooseBinding(saml, q.shire);
    const target = q.TARGET ?? q.target ?? null;
    if (target !== null && target.length > MAX_TARGET_LENGTH) throw samlBadRequest(`TARGET is longer than ${MAX_TARGET_LENGTH} characters`);
    const ownerRef = await this.transactions.begin(merchant.clientId, { target, consumerUrl: url, binding });
    return this.logins.begin({
      frontDoor: FRONT_DOOR,
      clientId: merchant.clientId,
      scopes: saml.scope.split(' ').filter(Boolean),
      // The spec's ui_locale (`nb_NO`) is one of the tags ui_locales reads.
      ...(q.ui_locale ? { uiLocales: q.ui_locale } : {}),
      // A SAML request always authenticates: no engine session is ever reused for it.
      prompt: 'login',
      ownerRef,
    });
  }

  /**
   * `mid` (our client_id) when given; otherwise `providerId`, the merchant's registered entity ID, which is all
   * a Shibboleth SessionInitiator or a SimpleSAMLphp SP sends (they know us from metadata, not a client_id).
   */
  private requestingMerchant(q: Record<string, string | undefined>) {
    if (q.mid !== undefined) return this.merchants.findEnabled(q.mid);
    return q.providerId ? this.merchants.findEnabledBySamlEntityId(q.providerId) : Promise.resolve(undefined);
  }

  async identified({ login, identity }: { login: OwnedLogin; identity: BrokeredIdentity }): Promise<LoginAnswer> {
    const { merchant, request } = await this.consume(login);
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
    if (artifact) return this.redirectWithArtifact(merchant.clientId, request, signAssertion(assertion.xml, key));
    const response = buildResponse({ recipient: request.consumerUrl, status: 'Success', signedAssertions: [signAssertion(assertion.xml, key)], now });
    return this.postForm(merchant, login, request.consumerUrl, signResponse(response.xml, key), request.target);
  }

  /** A cancelled or failed sign-in is answered too, as a signed Response without assertion (Responder, RequestDenied). */
  async failed({ login, error, description }: { login: OwnedLogin; error: string; description: string }): Promise<LoginAnswer> {
    const { merchant, request } = await this.consume(login);
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
    return this.postForm(merchant, login, request.consumerUrl, signResponse(response.xml, await this.keys.signingKey()), request.target);
  }

  /**
   * Single use, and the settings are read again: a merchant disabled, or whose consumer URL changed, while
   * the user was on the broker pages gets nothing.
   */
  private async consume(login: OwnedLogin): Promise<{ merchant: MerchantEntity; request: SamlRequest & { binding: SamlBinding } }> {
    const stored = await this.transactions.consume(login.ownerRef, login.clientId);
    const merchant = await this.merchants.findEnabled(login.clientId);
    const request = stored && { ...stored, binding: stored.binding ?? 'post' };
    if (!request || !merchant?.saml || endpointOf(merchant.saml, request.binding) !== request.consumerUrl) throw samlTransactionGone();
    return { merchant, request };
  }

  /**
   * Browser/Artifact: the signed assertion stays here (sealed, one minute, single use) and the browser goes to
   * the artifact receiver with SAMLart and TARGET (SAML 1.1 bindings §4.1.1); the merchant resolves it over
   * the SOAP back-channel (ArtifactResolutionService).
   */
  private async redirectWithArtifact(clientId: string, request: SamlRequest, signedAssertion: string): Promise<LoginAnswer> {
    const url = new URL(request.consumerUrl);
    if (request.target !== null) url.searchParams.append('TARGET', request.target);
    url.searchParams.append('SAMLart', await this.artifacts.issue(clientId, signedAssertion));
    return { kind: 'redirect', status: 303, location: url.toString(), headers: NO_STORE };
  }

  /** The NameIdentifier of the merchant's subject type, the same value as its OIDC `sub`. */
  private subjectFor(merchant: MerchantEntity, subject: string): string {
    return merchant.subjectType === 'pairwise' ? pairwiseSubject(this.config.pairwiseSecret, merchantSector(merchant.redirectUris), subject) : subject;
  }

  /**
   * Answered directly, not by a redirect to a GET: the signed response never sits at a URL of its own. In the
   * language the broker pages spoke (the same rule: request, browser, merchant's default).
   */
  private postForm(merchant: MerchantEntity, login: OwnedLogin, action: string, responseXml: string, target: string | null): LoginAnswer {
    const html = postFormPage(pageSiteOf(this.config), login.locale, {
      action,
      samlResponse: Buffer.from(responseXml, 'utf8').toString('base64'),
      target,
      merchantName: merchant.name,
      logo: pageLogoOf(merchant),
    });
    return { kind: 'page', status: 200, html, headers: NO_STORE };
  }
}

/**
 * `/its/index.html` is also the OIDC authorization endpoint: a SAML request is told apart by `mid` or `providerId`
 * without `client_id` or `response_type` (which every OIDC request has).
 */
export function isSamlRequest(query: Record<string, unknown>): boolean {
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
