import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Message signing per merchant (FAPI 2.0 Message Signing §5.3, §5.4): whether every authorization request must come as a
 * signed request object (RFC 9101 §10.5 `require_signed_request_object`), and the response modes the merchant may use
 * (Message Signing §5.3.3 `response_modes`; null, every mode the service offers). Existing merchants keep today's rules.
 */
export class MerchantMessageSigning1700000000255 implements MigrationInterface {
  name = 'MerchantMessageSigning1700000000255';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE merchants ADD COLUMN require_signed_request_object boolean NOT NULL DEFAULT false, ADD COLUMN response_modes jsonb NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE merchants DROP COLUMN require_signed_request_object, DROP COLUMN response_modes`);
  }
}
