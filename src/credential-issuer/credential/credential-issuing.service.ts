import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { DataSource } from 'typeorm';
import { issueVerifiedIdentityCredential, proofNonce, verifyKeyProofs } from '../../../libs/eu-wallet/src/index.js';
import { Clock } from '../../common/clock.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { VerificationRecordsService } from '../../verifier/records/verification-records.service.js';
import { CredentialIssuerError, invalidCredentialRequest, invalidNonce, invalidProof } from '../credential-issuer.errors.js';
import { issuerUrls, VCI_PATHS, type IssuerUrls } from '../credential-issuer-paths.js';
import { CredentialIssuancesService } from '../issuances/credential-issuances.service.js';
import { IssuerKeysService } from '../keys/issuer-keys.service.js';
import { SingleUseValuesService } from '../nonces/single-use-values.service.js';
import { CredentialStatusService } from '../status/credential-status.service.js';
import { DpopProofsService } from '../token/dpop-proofs.service.js';
import { credentialContent } from './credential-claims.js';
import { parseCredentialRequest } from './credential-request.js';

const DAY_MS = 86_400_000;

/**
 * One credential request, in the order that spends nothing on a bad request: the DPoP proof and the token it is bound
 * to; the request's shape; the c_nonce (spent once); every key proof (distinct keys, fresh, for this issuer); the
 * verification record the offer was made for. Then, in one transaction, status-list indexes for the batch and the
 * token spent; then one credential per holder key, each with its own index, so presentations of two credentials of
 * a batch share nothing a merchant could link.
 */
@Injectable()
export class CredentialIssuingService {
  private readonly urls: IssuerUrls;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly dpop: DpopProofsService,
    private readonly issuances: CredentialIssuancesService,
    private readonly singleUse: SingleUseValuesService,
    private readonly records: VerificationRecordsService,
    private readonly status: CredentialStatusService,
    private readonly keys: IssuerKeysService,
  ) {
    this.urls = issuerUrls(config.baseUrl);
  }

  async issue(req: Request, accessToken: string, body: unknown): Promise<{ credentials: { credential: string }[] }> {
    const jkt = await this.dpop.check(req, VCI_PATHS.credential, accessToken);
    const holder = await this.issuances.tokenHolder(accessToken, jkt);
    const jwts = parseCredentialRequest(body, this.config.credentialIssuer.batchSize);
    const now = this.clock.now();
    const nonce = this.libraryCall(() => proofNonce(jwts));
    if (!(await this.singleUse.spendNonce(nonce))) throw invalidNonce('the c_nonce is unknown, expired or already used: fetch a new one from the nonce endpoint');
    const holderKeys = await this.libraryCallAsync(() => verifyKeyProofs({ jwts, credentialIssuer: this.urls.issuer, expectedNonce: nonce, now, maxProofs: this.config.credentialIssuer.batchSize }));

    const record = await this.records.get(holder.recordId);
    if (!record || record.result !== 'pass') throw invalidCredentialRequest('the verification this offer was made for is no longer available');
    const content = credentialContent(record, now);
    const expiresAt = startOfDay(Math.min(content.validUntil?.getTime() ?? Infinity, now.getTime() + this.config.credentialIssuer.credentialMaxLifetimeDays * DAY_MS));
    if (expiresAt.getTime() <= now.getTime()) throw invalidCredentialRequest('the document has expired: no credential can be issued for it');

    const statuses = await this.dataSource.transaction(async (tx) => {
      const allocated = await this.status.allocate(holderKeys.length, { issuanceId: holder.issuanceId, recordId: holder.recordId, expiresAt }, tx);
      await this.issuances.markIssued(tx, holder.issuanceId, holderKeys.length, expiresAt);
      return allocated;
    });
    const signer = await this.keys.current();
    const credentials = await Promise.all(
      holderKeys.map(async (holderJwk, i) => ({
        credential: await issueVerifiedIdentityCredential({ signer, credentialIssuer: this.urls.issuer, vct: this.urls.vct, claims: content.claims, holderJwk, status: statuses[i], expiresAt }),
      })),
    );
    return { credentials };
  }

  /** The library's refusals carry an OpenID4VCI error code; they become this issuer's error objects (one line each). */
  private libraryCall<T>(call: () => T): T {
    try {
      return call();
    } catch (err) {
      throw asIssuerError(err);
    }
  }

  private async libraryCallAsync<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      throw asIssuerError(err);
    }
  }
}

function asIssuerError(err: unknown): unknown {
  if (err instanceof CredentialIssuerError) return err;
  const code = (err as { code?: unknown } | null)?.code;
  const message = err instanceof Error ? err.message : 'the key proof is not valid';
  if (code === 'invalid_nonce') return invalidNonce(message);
  if (code === 'invalid_credential_request') return invalidCredentialRequest(message);
  if (code === 'invalid_proof' || err instanceof Error) return invalidProof(message);
  return err;
}

const startOfDay = (ms: number) => new Date(Math.floor(ms / DAY_MS) * DAY_MS);
