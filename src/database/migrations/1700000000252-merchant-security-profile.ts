import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A merchant's security profile: `default` (every existing merchant, unchanged) or `fapi2` (the FAPI 2.0 Security
 * Profile's authorization server requirements, enforced by the engine per client).
 */
export class MerchantSecurityProfile1700000000252 implements MigrationInterface {
  name = 'MerchantSecurityProfile1700000000252';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE merchants ADD COLUMN security_profile text NOT NULL DEFAULT 'default' CONSTRAINT merchants_security_profile_known CHECK (security_profile IN ('default', 'fapi2'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE merchants DROP COLUMN security_profile`);
  }
}
