import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * pending: the browser went on to the document verification; authorized: it passed, the wallet was sent its code;
 * exchanged: the code was redeemed (once); failed: the verification failed or was cancelled.
 */
export type AuthorizationState = 'pending' | 'authorized' | 'exchanged' | 'failed';

/**
 * A wallet's authorization request (OpenID4VCI 1.0 §5.1), whose "login" is a fresh document verification. Its id is
 * the `state` of the broker's own authorization request; the code is kept as its SHA-256 only.
 */
@Entity('credential_authorizations')
export class CredentialAuthorizationEntity {
  @PrimaryColumn({ type: 'uuid' }) id: string;
  @Column({ name: 'client_id', type: 'text' }) clientId: string;
  @Column({ name: 'redirect_uri', type: 'text' }) redirectUri: string;
  /** RFC 7636 S256 challenge. */
  @Column({ name: 'code_challenge', type: 'text' }) codeChallenge: string;
  /** The wallet's own `state`, echoed on the redirect. */
  @Column({ name: 'wallet_state', type: 'text', nullable: true }) walletState: string | null;
  @Column({ type: 'text' }) state: AuthorizationState;
  @Column({ name: 'record_id', type: 'uuid', nullable: true }) recordId: string | null;
  @Column({ name: 'code_hash', type: 'text', nullable: true }) codeHash: string | null;
  @Column({ name: 'expires_at', type: 'timestamptz' }) expiresAt: Date;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
