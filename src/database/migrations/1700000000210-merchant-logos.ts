import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Merchant logos (issue 13): the registered logo_uri, and the fetched image kept by its SHA-256 and served by us. */
export class MerchantLogos1700000000210 implements MigrationInterface {
  name = 'MerchantLogos1700000000210';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE merchant_logos (
      sha256 text PRIMARY KEY,
      content_type text NOT NULL,
      bytes bytea NOT NULL,
      width integer NOT NULL,
      height integer NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`ALTER TABLE merchants ADD COLUMN logo_uri text`);
    await q.query(`ALTER TABLE merchants ADD COLUMN logo_sha256 text REFERENCES merchant_logos (sha256)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE merchants DROP COLUMN logo_sha256`);
    await q.query(`ALTER TABLE merchants DROP COLUMN logo_uri`);
    await q.query(`DROP TABLE merchant_logos`);
  }
}
