import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import { DocumentEvidence } from '../../broker/spi/document-evidence/document-evidence.js';
import { AppError } from '../../common/errors/app-error.js';
import type { BrokeredIdentity } from '../../broker/spi/eid-provider.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { MerchantsService } from '../../merchants/merchants.service.js';
import { type InteractionHandoff, LoginHandoff } from '../../oidc/interaction/interaction-handoff.js';
import { issuerUrls } from '../credential-issuer-paths.js';
import type { AuthorizationRequest } from './authorization-request.js';
import { CredentialAuthorizationsService, type WalletRedirect } from './credential-authorizations.service.js';

/** The engine client the issuer's own sign-ins run under (a reserved merchant, visible to the operator). */
export const WALLET_SIGN_IN_CLIENT_ID = 'credential-issuer';

/**
 * The "login" of the authorization code flow is a fresh document verification. As the SAML front door does, the issuer
 * runs it as an authorization request of the engine for a client of its own (its only scheme: the document verifier),
 * so the broker pages, the phone flow and their CSRF and cookie binding run unchanged; it takes over the end of the
 * interaction (InteractionHandoff): the wallet gets a code at its registered redirect URI, and no engine grant is made.
 */
@Injectable()
@LoginHandoff()
export class WalletSignIn implements InteractionHandoff, OnApplicationBootstrap {
  private readonly issuer: string;
  private readonly unusedRedirect: string;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly merchants: MerchantsService,
    private readonly authorizations: CredentialAuthorizationsService,
    private readonly evidence: DocumentEvidence,
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

  /** The engine's authorization request that starts the verification of `request` (its id as the state). */
  async begin(request: AuthorizationRequest): Promise<string> {
    const id = await this.authorizations.begin(request);
    const params = new URLSearchParams({
      client_id: WALLET_SIGN_IN_CLIENT_ID,
      response_type: 'code',
      redirect_uri: this.unusedRedirect,
      scope: 'openid',
      state: id,
      prompt: 'login',
      // As the SAML front door: a challenge of a verifier nobody keeps (no engine code is ever made).
      code_challenge: createHash('sha256').update(randomBytes(32)).digest('base64url'),
      code_challenge_method: 'S256',
      ...(request.uiLocales ? { ui_locales: request.uiLocales.slice(0, 200) } : {}),
    });
    return `/its/index.html?${params.toString()}`;
  }

  owns(params: Readonly<Record<string, unknown>>): Promise<boolean> {
    return params.client_id === WALLET_SIGN_IN_CLIENT_ID ? this.authorizations.isPending(params.state) : Promise.resolve(false);
  }

  /** Only a passed verification authorizes (a failed one also ends with an identity, naming no one: access_denied). */
  async identified(_req: Request, res: Response, params: Readonly<Record<string, unknown>>, _scheme: string, identity: BrokeredIdentity): Promise<void> {
    const id = String(params.state);
    const record = identity.evidenceRef ? await this.evidence.record(identity.evidenceRef) : undefined;
    const redirect = record?.result === 'pass' ? await this.authorizations.authorize(id, identity.evidenceRef!) : await this.authorizations.fail(id);
    this.send(res, redirect, redirect?.code ? undefined : 'access_denied');
  }

  async failed(_req: Request, res: Response, params: Readonly<Record<string, unknown>>): Promise<void> {
    this.send(res, await this.authorizations.fail(String(params.state)), 'access_denied');
  }

  /** RFC 6749 §4.1.2 with RFC 9207's `iss`; a request already ended (a replayed Continue) goes nowhere. */
  private send(res: Response, redirect: WalletRedirect | undefined, error?: string): void {
    if (!redirect) throw new AppError(410, 'invalid_request', 'this sign-in has already ended');
    const url = new URL(redirect.redirectUri);
    if (error) url.searchParams.set('error', error);
    else url.searchParams.set('code', redirect.code!);
    if (redirect.walletState !== null) url.searchParams.set('state', redirect.walletState);
    url.searchParams.set('iss', this.issuer);
    res.set('Cache-Control', 'no-store').redirect(303, url.toString());
  }
}
