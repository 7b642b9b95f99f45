import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Auth-files PAdES (issue 11): customer-test's generated test signer (a test CA and a signing certificate), the
 * private key sealed. A configured signer (PADES_SIGNING_KEY_FILE) is read from its files and never stored here.
 */
export class PadesSigner1700000000110 implements MigrationInterface {
  name = 'PadesSigner1700000000110';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE pades_test_signers (
        id text PRIMARY KEY,
        private_key_sealed text NOT NULL,
        certificate_chain_pem text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE pades_test_signers`);
  }
}
