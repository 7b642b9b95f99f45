import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Global logout (issue 12): the addresses a merchant registers for the browser's return after logout. */
export class PostLogoutRedirectUris1700000000123 implements MigrationInterface {
  name = 'PostLogoutRedirectUris1700000000123';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE merchants ADD COLUMN post_logout_redirect_uris jsonb NOT NULL DEFAULT '[]'::jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE merchants DROP COLUMN post_logout_redirect_uris`);
  }
}
