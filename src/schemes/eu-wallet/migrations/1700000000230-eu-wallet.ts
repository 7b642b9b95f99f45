import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The EU wallet scheme: its OpenID4VP transactions and customer-test's wallet PKI. */
export class EuWallet1700000000230 implements MigrationInterface {
  name = 'EuWallet1700000000230';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE wallet_transactions (
      id text PRIMARY KEY,
      interaction_uid text NOT NULL,
      client_id text NOT NULL,
      status text NOT NULL,
      flow text,
      request_sealed text NOT NULL,
      result_sealed text,
      failure text,
      response_code_hash text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL
    )`);
    await q.query(`CREATE INDEX wallet_transactions_interaction ON wallet_transactions (interaction_uid)`);
    await q.query(`CREATE INDEX wallet_transactions_expiry ON wallet_transactions (expires_at)`);
    await q.query(`CREATE TABLE wallet_test_authorities (id text PRIMARY KEY, sealed text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE wallet_test_authorities`);
    await q.query(`DROP TABLE wallet_transactions`);
  }
}
