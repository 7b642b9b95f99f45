import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The broker's own keys as a client of upstream providers (private_key_jwt, encrypted ID tokens). */
export class UpstreamClientKeys1700000000201 implements MigrationInterface {
  name = 'UpstreamClientKeys1700000000201';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE upstream_client_keys (
      kid text PRIMARY KEY,
      use text NOT NULL,
      alg text NOT NULL,
      private_jwk_sealed text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`ALTER TABLE eid_schemes ADD COLUMN token_endpoint_auth_signing_alg text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE eid_schemes DROP COLUMN token_endpoint_auth_signing_alg`);
    await q.query(`DROP TABLE upstream_client_keys`);
  }
}
