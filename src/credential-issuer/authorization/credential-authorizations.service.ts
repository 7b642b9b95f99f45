import { Injectable } from '@nestjs/common';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { DataSource, LessThanOrEqual, Repository } from 'typeorm';
import { Clock } from '../../common/clock.js';
import { constantTimeEqual, sha256Hex } from '../../common/crypto/constant-time.js';
import { invalidGrant } from '../credential-issuer.errors.js';
import type { AuthorizationRequest } from './authorization-request.js';
import { CredentialAuthorizationEntity } from './credential-authorization.entity.js';

/** A person takes minutes for a chip read and a face scan; the code then lives one minute (RFC 6749 §4.1.2: short). */
const VERIFICATION_MINUTES = 30;
const CODE_SECONDS = 60;

/** Where the wallet is sent back, and with what. */
export interface WalletRedirect {
  redirectUri: string;
  walletState: string | null;
  code?: string;
}

/**
 * The authorization code flow's state (OpenID4VCI 1.0 §5, RFC 6749 §4.1, RFC 7636): a pending request while the person
 * verifies their document, a code (its hash) when that passed, and one exchange of the code with the PKCE verifier.
 * Each step is one conditional UPDATE: a code is exchanged once, a request is ended once.
 */
@Injectable()
export class CredentialAuthorizationsService {
  private readonly repo: Repository<CredentialAuthorizationEntity>;

  constructor(
    dataSource: DataSource,
    private readonly clock: Clock,
  ) {
    this.repo = dataSource.getRepository(CredentialAuthorizationEntity);
  }

  async begin(request: AuthorizationRequest): Promise<string> {
    const id = randomUUID();
    await this.repo.insert({
      id,
      clientId: request.clientId,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      walletState: request.state ?? null,
      state: 'pending',
      expiresAt: new Date(this.clock.now().getTime() + VERIFICATION_MINUTES * 60_000),
    });
    return id;
  }

  /** The verification passed: a code for the wallet, once. */
  async authorize(id: string, recordId: string): Promise<WalletRedirect | undefined> {
    const code = randomBytes(32).toString('base64url');
    const rows = await this.end(id, {
      state: 'authorized',
      recordId,
      codeHash: sha256Hex(code),
      expiresAt: new Date(this.clock.now().getTime() + CODE_SECONDS * 1000),
    });
    return rows && { ...rows, code };
  }

  /** The verification failed or was cancelled: the wallet hears access_denied. */
  async fail(id: string): Promise<WalletRedirect | undefined> {
    return this.end(id, { state: 'failed' });
  }

  private async end(id: string, changes: Partial<CredentialAuthorizationEntity>): Promise<WalletRedirect | undefined> {
    const row = await this.repo.findOneBy({ id });
    if (!row) return undefined;
    const result = await this.repo
      .createQueryBuilder()
      .update()
      .set(changes)
      .where('id = :id AND state = :pending AND expires_at > :now', { id, pending: 'pending', now: this.clock.now() })
      .execute();
    return result.affected === 1 ? { redirectUri: row.redirectUri, walletState: row.walletState } : undefined;
  }

  /**
   * RFC 6749 §4.1.3 and RFC 7636 §4.6: the code, for the client and redirect URI it was issued to, with its verifier;
   * once. `authenticated` runs when all of them are right, before the exchange (the DPoP proof's single use).
   */
  async exchange(
    code: string,
    clientId: string,
    redirectUri: string,
    codeVerifier: string,
    authenticated: () => Promise<void>,
  ): Promise<{ recordId: string; clientId: string }> {
    const refused = () => invalidGrant('the authorization code is unknown, expired, already used, or was issued to another client or redirect URI');
    const row = await this.repo.findOneBy({ codeHash: sha256Hex(code) });
    if (!row || row.state !== 'authorized' || row.expiresAt <= this.clock.now() || !row.recordId) throw refused();
    if (row.clientId !== clientId || row.redirectUri !== redirectUri) throw refused();
    const challenge = createHash('sha256').update(codeVerifier).digest('base64url');
    if (!constantTimeEqual(challenge, row.codeChallenge)) throw invalidGrant('the code_verifier does not match the code_challenge');
    await authenticated();
    const result = await this.repo.update({ id: row.id, state: 'authorized' }, { state: 'exchanged', codeHash: null });
    if (result.affected !== 1) throw refused();
    return { recordId: row.recordId, clientId: row.clientId };
  }

  async purge(): Promise<void> {
    await this.repo.delete({ expiresAt: LessThanOrEqual(new Date(this.clock.now().getTime() - 3600_000)) });
  }
}
