import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Upstream schemes whose ID tokens are encrypted to the broker's key (null: plain signed ID tokens). */
export class UpstreamIdTokenEncryption1700000000202 implements MigrationInterface {
  name = 'UpstreamIdTokenEncryption1700000000202';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE eid_schemes ADD COLUMN id_token_encrypted_response_alg text, ADD COLUMN id_token_encrypted_response_enc text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE eid_schemes DROP COLUMN id_token_encrypted_response_alg, DROP COLUMN id_token_encrypted_response_enc`);
  }
}
