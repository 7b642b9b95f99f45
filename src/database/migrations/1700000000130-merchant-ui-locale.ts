import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Broker pages (issue 13): the language a merchant's pages fall back to when neither request nor browser names one. */
export class MerchantUiLocale1700000000130 implements MigrationInterface {
  name = 'MerchantUiLocale1700000000130';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE merchants ADD COLUMN default_ui_locale text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE merchants DROP COLUMN default_ui_locale`);
  }
}
