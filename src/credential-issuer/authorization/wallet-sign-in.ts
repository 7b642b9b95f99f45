import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { DocumentEvidence } from '../../broker/spi/document-evidence/document-evidence.js';
import { AppError } from '../../common/errors/app-error.js';
import type { BrokeredIdentity } from '../../broker/spi/eid-provider.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { MerchantsService } from '../../merchants/merchants.service.js';
import { type LoginAnswer, LoginFrontDoor, type OwnedLogin } from '../../broker/login/login-front-doors.js';
import { LoginRequests } from '../../broker/login/login-requests.js';
import { issuerUrls } from '../credential-issuer-paths.js';
import type { AuthorizationRequest } from './authorization-request.js';
import { CredentialAuthorizationsService, type WalletRedirect } from './credential-authorizations.service.js';

/** The engine client the issuer's own sign-ins run under (a reserved merchant, visible to the operator). */
export const WALLET_SIGN_IN_CLIENT_ID = 'credential-issuer';

/** The issuer's name as a front door of the broker core: its sign-ins come back to it by this name. */
const FRONT_DOOR = 'credential-issuer';

/**
 * The "login" of the authorization code flow is a fresh document verification. As the SAML front door does, the issuer
 * starts it as a brokered login through the broker core (LoginRequests.begin) for a client of its own (its only scheme:
 * the document verifier), so the broker pages, the phone flow and their CSRF and cookie binding run unchanged; the core
 * hands it the end by its name, and it answers as data: the wallet gets a code of the issuer's own at its registered
 * redirect URI, and no engine grant or code is made.
 */
@Injectable()
@LoginFrontDoor(FRONT_DOOR)
export class WalletSignIn implements LoginFrontDoor, OnApplicationBootstrap {
  private readonly issuer: string;
  /** The reserved client's registered redirect URI, which the engine wants; never used. */
  private readonly unusedRedirect: string;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly merchants: MerchantsService,
    private readonly authorizations: CredentialAuthorizationsService,
    private readonly evidence: DocumentEvidence,
    private readonly logins: LoginRequests,
  ) {
    this.issuer = issuerUrls(config.baseUrl).issuer;
    this.unusedRedirect = `${config.baseUrl}/vci/authorize/end`;
  }

  /** The reserved client exists once wallets are registered (an operator who registers none never sees it). */
  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.credentialIssuer.walletClients.length) return;
    await this.merchants.ensureReserved(WALLET_SIGN_IN_CLIENT_ID, {
      name: `${this.config.authFiles.operatorName}: credential issuer`,
      redirect_uris: [this.unusedRedirect],
      eid_schemes: [this.evidence.schemeId],
      scope: 'openid',
    });
  }

  /** Starts the verification of `request` (its id as the login's reference); answers where the browser goes (303). */
  async begin(request: AuthorizationRequest): Promise<{ location: string }> {
    const id = await this.authorizations.begin(request);
    return this.logins.begin({
      frontDoor: FRONT_DOOR,
      clientId: WALLET_SIGN_IN_CLIENT_ID,
      scopes: ['openid'],
      ...(request.uiLocales ? { uiLocales: request.uiLocales } : {}),
      prompt: 'login',
      ownerRef: id,
    });
  }

  /** Only a passed verification authorizes (a failed one also ends with an identity, naming no one: access_denied). */
  async identified({ login, identity }: { login: OwnedLogin; identity: BrokeredIdentity }): Promise<LoginAnswer> {
    const record = identity.evidenceRef ? await this.evidence.recordClaims(identity.evidenceRef) : undefined;
    const redirect =
      record?.result === 'pass' ? await this.authorizations.authorize(login.ownerRef, identity.evidenceRef!) : await this.authorizations.fail(login.ownerRef);
    return this.answer(redirect, redirect?.code ? undefined : 'access_denied');
  }

  async failed({ login }: { login: OwnedLogin }): Promise<LoginAnswer> {
    return this.answer(await this.authorizations.fail(login.ownerRef), 'access_denied');
  }

  /** RFC 6749 §4.1.2 with RFC 9207's `iss`; a request already ended (a replayed Continue) goes nowhere. */
  private answer(redirect: WalletRedirect | undefined, error?: string): LoginAnswer {
    if (!redirect) throw new AppError(410, 'invalid_request', 'this sign-in has already ended');
    const url = new URL(redirect.redirectUri);
    if (error) url.searchParams.set('error', error);
    else url.searchParams.set('code', redirect.code!);
    if (redirect.walletState !== null) url.searchParams.set('state', redirect.walletState);
    url.searchParams.set('iss', this.issuer);
    return { kind: 'redirect', status: 303, location: url.toString(), headers: { 'Cache-Control': 'no-store' } };
  }
}
