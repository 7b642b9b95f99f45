import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The service's own reusable credential in the EU wallet scheme: how many days after the original document
 * verification it still earns eIDAS high for this merchant (1 to 3650, default 30).
 */
export class MerchantReusedIdentityAge1700000000242 implements MigrationInterface {
  name = 'MerchantReusedIdentityAge1700000000242';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE merchants ADD COLUMN reused_identity_max_age_days integer NOT NULL DEFAULT 30 CONSTRAINT merchants_reused_identity_max_age_days_range CHECK (reused_identity_max_age_days BETWEEN 1 AND 3650)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE merchants DROP COLUMN reused_identity_max_age_days`);
  }
}
