import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * SAML 1.1 front door (issue 12): our SAML signing key with its certificate (the key sealed), and the
 * SAML sign-ins in flight between the front door and the broker pages (what to answer, sealed).
 */
export class SamlFrontDoor1700000000121 implements MigrationInterface {
  name = 'SamlFrontDoor1700000000121';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE saml_signing_keys (
        kid text PRIMARY KEY,
        private_key_sealed text NOT NULL,
        certificate_pem text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE saml_transactions (
        id text PRIMARY KEY,
        client_id text NOT NULL,
        request_sealed text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        consumed_at timestamptz NULL
      )`);
    await q.query(`CREATE INDEX saml_transactions_expires_at ON saml_transactions (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE saml_transactions`);
    await q.query(`DROP TABLE saml_signing_keys`);
  }
}
