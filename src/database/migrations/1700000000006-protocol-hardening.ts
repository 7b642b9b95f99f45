import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Merchants register the request_uris they will use (OIDC registration `request_uris`): nothing else is
 * fetched. Signing keys get the moment they start signing, so a rotated key is published on every
 * instance before any instance signs with it.
 */
export class ProtocolHardening1700000000006 implements MigrationInterface {
  name = 'ProtocolHardening1700000000006';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE merchants ADD COLUMN request_uris jsonb NOT NULL DEFAULT '[]'::jsonb`);
    await q.query(`ALTER TABLE signing_keys ADD COLUMN signs_from timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE signing_keys DROP COLUMN signs_from`);
    await q.query(`ALTER TABLE merchants DROP COLUMN request_uris`);
  }
}
