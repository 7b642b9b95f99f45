import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The credential issuer (OpenID4VCI 1.0): offers and what came of them, wallets' authorization requests (the
 * authorization code flow), single-use nonces and DPoP proof ids, and the
 * merchant's choice to offer the credential at the end of its sign-ins.
 */
export class CredentialIssuer1700000000240 implements MigrationInterface {
  name = 'CredentialIssuer1700000000240';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE credential_issuances (
      id uuid PRIMARY KEY,
      record_id uuid NOT NULL,
      client_id text NOT NULL,
      state text NOT NULL,
      offer_handle_hash text NOT NULL UNIQUE,
      pre_authorized_code_hash text NOT NULL UNIQUE,
      tx_code_hash text NOT NULL,
      tx_code_failures int NOT NULL DEFAULT 0,
      revocation_handle_hash text NOT NULL UNIQUE,
      offer_expires_at timestamptz NOT NULL,
      access_token_hash text UNIQUE,
      access_token_jkt text,
      access_token_expires_at timestamptz,
      issued_count int NOT NULL DEFAULT 0,
      issued_at timestamptz,
      delete_after timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE INDEX credential_issuances_record ON credential_issuances (record_id)`);
    await q.query(`CREATE INDEX credential_issuances_delete_after ON credential_issuances (delete_after)`);
    await q.query(`CREATE TABLE credential_authorizations (
      id uuid PRIMARY KEY,
      client_id text NOT NULL,
      redirect_uri text NOT NULL,
      code_challenge text NOT NULL,
      wallet_state text,
      state text NOT NULL,
      record_id uuid,
      code_hash text UNIQUE,
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE INDEX credential_authorizations_expiry ON credential_authorizations (expires_at)`);
    await q.query(`CREATE TABLE credential_issuer_nonces (nonce_hash text PRIMARY KEY, expires_at timestamptz NOT NULL)`);
    await q.query(`CREATE TABLE credential_issuer_dpop_proofs (jti_hash text PRIMARY KEY, expires_at timestamptz NOT NULL)`);
    await q.query(`ALTER TABLE merchants ADD COLUMN offer_credential boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE merchants DROP COLUMN offer_credential`);
    await q.query(`DROP TABLE credential_issuer_dpop_proofs`);
    await q.query(`DROP TABLE credential_issuer_nonces`);
    await q.query(`DROP TABLE credential_authorizations`);
    await q.query(`DROP TABLE credential_issuances`);
  }
}
