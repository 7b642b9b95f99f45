import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The OpenID4VCI credential issuer's state: customer-test's test root and signer certificates (sealed), the Token
 * Status Lists and one status row per issued credential (its random index in its list).
 */
export class CredentialIssuerState1700000000241 implements MigrationInterface {
  name = 'CredentialIssuerState1700000000241';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE credential_issuer_test_authority (id text PRIMARY KEY, sealed text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE TABLE credential_issuer_keys (
      kid text PRIMARY KEY,
      alg text NOT NULL,
      status text NOT NULL,
      certificate text NOT NULL,
      subject text NOT NULL,
      not_after timestamptz NOT NULL,
      private_key_sealed text NOT NULL,
      signs_from timestamptz,
      retire_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE TABLE credential_status_lists (
      id text PRIMARY KEY,
      used integer NOT NULL DEFAULT 0,
      open boolean NOT NULL DEFAULT true,
      version bigint NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE TABLE issued_credential_status (
      list_id text NOT NULL REFERENCES credential_status_lists (id),
      idx integer NOT NULL,
      status smallint NOT NULL DEFAULT 0,
      issuance_id text NOT NULL,
      verification_record_id uuid,
      record_delete_after timestamptz,
      revocation_handle_hash text,
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (list_id, idx)
    )`);
    await q.query(`CREATE INDEX issued_credential_status_issuance ON issued_credential_status (issuance_id)`);
    await q.query(`CREATE INDEX issued_credential_status_record ON issued_credential_status (verification_record_id)`);
    await q.query(`CREATE INDEX issued_credential_status_handle ON issued_credential_status (revocation_handle_hash)`);
    await q.query(`CREATE INDEX issued_credential_status_expiry ON issued_credential_status (expires_at)`);
    await q.query(`CREATE INDEX issued_credential_status_revoked ON issued_credential_status (list_id) WHERE status <> 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE issued_credential_status`);
    await q.query(`DROP TABLE credential_status_lists`);
    await q.query(`DROP TABLE credential_issuer_keys`);
    await q.query(`DROP TABLE credential_issuer_test_authority`);
  }
}
