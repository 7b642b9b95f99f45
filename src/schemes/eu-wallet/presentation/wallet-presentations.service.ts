import { Inject, Injectable } from '@nestjs/common';
import { createHmac } from 'node:crypto';
import { calculateJwkThumbprint, type JWK } from 'jose';
import {
  checkVpTokenAgainstQuery,
  MDL_DOCTYPE,
  MDL_NAMESPACE,
  openId4VpSessionTranscript,
  PID_MDOC_DOCTYPE,
  PID_SD_JWT_VCT,
  verifyMdocPresentation,
  verifySdJwtVcPresentation,
  type DcqlQuery,
  type PresentationSigner,
  WalletCheckError,
} from '@identity-broker/eu-wallet';
import { ACR_EIDAS_HIGH, ACR_REQUEST_HIGH } from '../../../broker/spi/acr.js';
import { documentSubject, transactionSubject, verifiedDocumentSubject } from '../../../broker/spi/subjects/document-subject.js';
import { APP_CONFIG, type AppConfig } from '../../../config/load-config.js';
import { REUSED_IDENTITY_MAX_AGE_DAYS } from '../../../merchants/merchant.entity.js';
import { reusedIdentityAcr, reusedIdentityClaims } from '../claims/reused-identity-claims.js';
import { walletClaims } from '../claims/wallet-claims.js';
import type { WalletCredentialKind } from '../claims/wallet-credentials.js';
import type { WalletRequestData, WalletResult } from '../transactions/wallet-transactions.service.js';
import { ReusedIdentityTrust } from '../trust/reused-identity-trust.service.js';
import { WalletTrustService } from '../trust/wallet-trust.service.js';
import { WalletStatusLists } from './wallet-status-lists.js';
import { reusedIdentityVerification, walletCredentialVerification } from './wallet-verification.js';

/** What binds an answer to its request, beyond the sealed request data: who we said we were and where to answer. */
export interface PresentationBinding {
  /** The answering wallet transaction's id: the process `verified_claims` names. */
  transactionId: string;
  clientId: string;
  responseUri: string;
  acrValues: string[];
}

/**
 * Turns a vp_token into the identity a merchant gets: the answer must be one of the query's options (one credential),
 * the presentation is checked by the library for its format against the anchors of its kind and bound to this
 * request (nonce and client identifier for SD-JWT VC, the OpenID4VP session transcript for mdocs), its status is
 * looked up, and its values become the broker's claims. Any refusal is a WalletCheckError.
 */
@Injectable()
export class WalletPresentationsService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly trust: WalletTrustService,
    private readonly statusLists: WalletStatusLists,
    private readonly reused: ReusedIdentityTrust,
  ) {}

  async verify(request: WalletRequestData, binding: PresentationBinding, vpToken: unknown, now = new Date()): Promise<WalletResult> {
    const answered = Object.entries(checkVpTokenAgainstQuery(vpToken, request.dcqlQuery as unknown as DcqlQuery));
    if (answered.length !== 1 || answered[0][1].length !== 1)
      throw new WalletCheckError('unexpected_credential', 'the answer must be one presentation of one of the offered credentials');
    const [[id, [presentation]]] = answered;
    const kind = id as WalletCredentialKind;
    if (kind === 'reused_identity') return this.verifyReused(request, binding, presentation, now);
    const anchors = await this.trust.anchors();
    const revocation = await this.trust.revocation();
    const pidAnchors = [...anchors.pid, ...anchors.pidHigh];
    let values: Readonly<Record<string, unknown>>;
    let issuer: { subject: string; anchorSubject: string };
    let status: { uri: string; idx: number } | undefined;
    let signer: PresentationSigner;
    let record: { type: string; issuedAt?: Date; expiresAt?: Date };
    if (kind === 'pid_sd_jwt') {
      const r = await verifySdJwtVcPresentation({
        presentation,
        trustAnchors: pidAnchors,
        acceptedVcts: [PID_SD_JWT_VCT],
        nonce: request.nonce,
        audience: binding.clientId,
        now,
        revocation,
      });
      ({ claims: values, issuer, status, signer } = r);
      record = { type: r.vct, issuedAt: r.issuedAt, expiresAt: r.expiresAt };
    } else if (kind === 'pid_mdoc' || kind === 'mdl') {
      const jwkThumbprint = Buffer.from(await calculateJwkThumbprint(request.encryptionKey as JWK, 'sha256'), 'base64url');
      const sessionTranscript = openId4VpSessionTranscript({
        clientId: binding.clientId,
        nonce: request.nonce,
        jwkThumbprint,
        responseUri: binding.responseUri,
      });
      const docType = kind === 'mdl' ? MDL_DOCTYPE : PID_MDOC_DOCTYPE;
      const r = await verifyMdocPresentation({
        deviceResponse: presentation,
        sessionTranscript,
        trustAnchors: kind === 'mdl' ? anchors.mdl : pidAnchors,
        expectedDocType: docType,
        now,
        revocation,
      });
      values = r.elements[kind === 'mdl' ? MDL_NAMESPACE : PID_MDOC_DOCTYPE] ?? {};
      ({ issuer, status, signer } = r);
      record = { type: r.docType, issuedAt: r.signedAt, expiresAt: r.validUntil };
    } else {
      throw new WalletCheckError('unexpected_credential', 'an answer for a credential that was not asked for');
    }
    if (status) await this.statusLists.check(status, kind === 'mdl' ? anchors.mdl : pidAnchors, signer);
    const { claims, birthDate } = walletClaims(kind, values, request.scopes);
    // acr high only when asked for and earned: a PID whose provider the operator trusts at level high.
    const high = kind !== 'mdl' && binding.acrValues.includes(ACR_REQUEST_HIGH) && anchors.pidHighSubjects.has(issuer.anchorSubject);
    return {
      subject: this.subjectOf(kind, claims),
      claims,
      birthDate,
      acr: high ? ACR_EIDAS_HIGH : undefined,
      amr: ['eudi_wallet', 'pop'],
      credential: kind,
      issuer: issuer.subject,
      verifiedAt: now.toISOString(),
      verification: walletCredentialVerification({
        ...record,
        transactionId: binding.transactionId,
        presentedAt: now,
        signer,
        issuingCountry: typeof claims.issuing_country === 'string' ? claims.issuing_country : undefined,
        test: anchors.testAnchors.has(signer.anchor.fingerprint256),
      }),
    };
  }

  /**
   * The service's own credential (docs/eu-wallet.md#the-services-own-credential): an SD-JWT VC like the PID, checked
   * against the credential issuer's roots and vct, issued by it (`iss`, SD-JWT VC draft "iss": the issuer identifier
   * the provider names, or it is someone else's credential of that type), not revoked. `sub` is the document's, as the
   * document verifier names it, so that a merchant sees the same person; acr high by reusedIdentityAcr. Its status is the
   * issuer's own current state, asked in process (WalletStatusLists.checkOwn).
   */
  private async verifyReused(request: WalletRequestData, binding: PresentationBinding, presentation: string, now: Date): Promise<WalletResult> {
    const trusted = await this.reused.trustedWithAnchors();
    if (!trusted) throw new WalletCheckError('unexpected_credential', "the service's own credential is not accepted here");
    const { provider, anchors } = trusted;
    const revocation = await this.trust.revocation();
    const r = await verifySdJwtVcPresentation({
      presentation,
      trustAnchors: anchors,
      acceptedVcts: [provider.vct],
      nonce: request.nonce,
      audience: binding.clientId,
      now,
      revocation,
    });
    if (r.claims.iss !== provider.issuer) throw new WalletCheckError('unexpected_credential', "the credential's iss is not the service's credential issuer");
    // Our own status lists are read in process; another uri (none we issue) over HTTP like any other.
    if (r.status) await this.statusLists.checkOwn(r.status, provider, anchors, r.signer);
    const { claims, birthDate, verifiedAt } = reusedIdentityClaims(r.claims, request.scopes);
    const acr = reusedIdentityAcr({
      acrValues: binding.acrValues,
      assurance: r.claims.assurance,
      verifiedAt,
      maxAgeDays: request.reusedIdentityMaxAgeDays ?? REUSED_IDENTITY_MAX_AGE_DAYS.default,
      now,
    });
    const { issuing_country: country, document_number: number } = claims;
    return {
      subject:
        typeof country === 'string' && typeof number === 'string' ? verifiedDocumentSubject(this.config.subjectSecret, country, number) : transactionSubject(),
      claims,
      birthDate,
      acr,
      // RFC 8176: the methods of this authentication, the wallet and its key; the reuse is told by the claims
      // (authentication_sources REUSED_CREDENTIAL, verified_at), for no registered amr value names it.
      amr: ['eudi_wallet', 'pop'],
      credential: 'reused_identity',
      issuer: r.issuer.subject,
      verifiedAt: now.toISOString(),
      verification: reusedIdentityVerification({
        transactionId: binding.transactionId,
        presentedAt: now,
        type: r.vct,
        signer: r.signer,
        issuingCountry: typeof country === 'string' ? country : undefined,
        issuedAt: r.issuedAt,
        expiresAt: r.expiresAt,
        // customer-test's credential issuer signs with customer-test's keys: its credentials are test credentials.
        test: !this.config.isProduction,
        claims,
        verifiedAt,
      }),
    };
  }

  /**
   * `sub`: an mDL's issuing country and document number (as the document verifier's documents); a PID's issuing
   * country, names and birth date when the merchant asked for them (profile). Without them the merchant asked for
   * nothing that identifies a person, and gets a one-time subject: the wallet was not asked for one either.
   */
  private subjectOf(kind: WalletCredentialKind, claims: Record<string, unknown>): string {
    const secret = this.config.subjectSecret;
    if (kind === 'mdl' && typeof claims.issuing_country === 'string' && typeof claims.document_number === 'string')
      return documentSubject(secret, 'eu-wallet-mdl', claims.issuing_country, claims.document_number);
    const person = [claims.issuing_country, claims.family_name, claims.given_name, claims.birthdate];
    if (kind !== 'mdl' && person.every((part) => typeof part === 'string'))
      return createHmac('sha256', secret)
        .update(`eu-wallet-pid:${JSON.stringify(person)}`)
        .digest('base64url')
        .slice(0, 32);
    return transactionSubject();
  }
}
