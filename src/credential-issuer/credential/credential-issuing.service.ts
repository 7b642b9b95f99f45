import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { DataSource } from 'typeorm';
import { DocumentEvidence } from '../../broker/spi/document-evidence/document-evidence.js';
import { statedFramework } from '../../broker/spi/identity-assurance/stated-framework.js';
import { issueVerifiedIdentityCredential, parseCredentialRequestBody, proofNonce, verifyKeyProofs } from '@identity-broker/eu-wallet';
import { Clock } from '../../common/clock.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { fromLibrary, invalidCredentialRequest, invalidNonce } from '../credential-issuer.errors.js';
import { CREDENTIAL_CONFIGURATION_ID, issuerUrls, VCI_PATHS, type IssuerUrls } from '../credential-issuer-paths.js';
import { CredentialIssuancesService } from '../issuances/credential-issuances.service.js';
import { IssuerKeysService } from '../keys/issuer-keys.service.js';
import { SingleUseValuesService } from '../nonces/single-use-values.service.js';
import { CredentialStatusService } from '../status/credential-status.service.js';
import { DpopProofsService } from '../token/dpop-proofs.service.js';
import { credentialContent } from './credential-claims.js';

const DAY_MS = 86_400_000;

/**
 * One credential request, in the order that spends nothing on a bad request: the DPoP proof and the token it is bound
 * to (only then is the proof's jti kept); the request's shape; the c_nonce (spent once); every key proof (distinct
 * keys, fresh, for this issuer); the verification record the offer was made for (its claims: its images stay sealed). Then, in one transaction,
 * status-list indexes for the batch and the token spent; then one credential per holder key, each with its own index,
 * so presentations of two credentials of a batch share nothing a merchant could link.
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
    private readonly evidence: DocumentEvidence,
    private readonly status: CredentialStatusService,
    private readonly keys: IssuerKeysService,
  ) {
    this.urls = issuerUrls(config.baseUrl);
  }

  async issue(req: Request, accessToken: string, body: unknown): Promise<{ credentials: { credential: string }[] }> {
    const proof = this.dpop.check(req, VCI_PATHS.credential, accessToken);
    const holder = await this.issuances.tokenHolder(accessToken, proof.jkt);
    // Only now, with the token proven, is the proof's jti kept (and a replay refused): see CheckedProof.spend.
    await proof.spend();
    const { jwts } = refusals(() => parseCredentialRequestBody({ body, configurationIds: [CREDENTIAL_CONFIGURATION_ID] }));
    const now = this.clock.now();
    const nonce = refusals(() => proofNonce(jwts));
    if (!(await this.singleUse.spendNonce(nonce)))
      throw invalidNonce('the c_nonce is unknown, expired or already used: fetch a new one from the nonce endpoint');
    const holderKeys = await refusals(() =>
      verifyKeyProofs({ jwts, credentialIssuer: this.urls.issuer, expectedNonce: nonce, now, maxProofs: this.config.credentialIssuer.batchSize }),
    );

    const record = await this.evidence.recordClaims(holder.recordId);
    if (!record || record.result !== 'pass') throw invalidCredentialRequest('the verification this offer was made for is no longer available');
    // The document verifier's framework, as its logins state it in verified_claims: the test framework for a specimen or in customer-test.
    const { trust_framework } = statedFramework(this.config, { scheme: this.evidence.schemeId, verification: { test: record.specimen === true } });
    const content = credentialContent(record, now, trust_framework);
    const expiresAt = startOfDay(
      Math.min(content.validUntil?.getTime() ?? Infinity, now.getTime() + this.config.credentialIssuer.credentialMaxLifetimeDays * DAY_MS),
    );
    if (expiresAt.getTime() <= now.getTime()) throw invalidCredentialRequest('the document has expired: no credential can be issued for it');

    const statuses = await this.dataSource.transaction(async (tx) => {
      const allocated = await this.status.allocate(
        holderKeys.length,
        { issuanceId: holder.issuanceId, recordId: holder.recordId, expiresAt, revocationHandleHash: holder.revocationHandleHash },
        tx,
      );
      await this.issuances.markIssued(tx, holder.issuanceId, holderKeys.length, expiresAt);
      return allocated;
    });
    const signer = await this.keys.current();
    const credentials = await Promise.all(
      holderKeys.map(async (holderJwk, i) => ({
        credential: await issueVerifiedIdentityCredential({
          signer,
          credentialIssuer: this.urls.issuer,
          vct: this.urls.vct,
          claims: content.claims,
          holderJwk,
          status: statuses[i],
          expiresAt,
        }),
      })),
    );
    return { credentials };
  }
}

/** The library's refusals of the wallet's input become this issuer's error objects (one line each). */
function refusals<T>(call: () => T): T {
  try {
    const result = call();
    return result instanceof Promise ? (result.catch((err: unknown) => Promise.reject(fromLibrary(err, false))) as T) : result;
  } catch (err) {
    throw fromLibrary(err, false);
  }
}

const startOfDay = (ms: number) => new Date(Math.floor(ms / DAY_MS) * DAY_MS);
