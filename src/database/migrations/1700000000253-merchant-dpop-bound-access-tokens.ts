import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * RFC 9449 §5.2 client metadata `dpop_bound_access_tokens`: the merchant's token requests must carry a DPoP proof, so
 * every access token it gets is bound to its key. Default false: existing merchants are unchanged.
 */
export class MerchantDpopBoundAccessTokens1700000000253 implements MigrationInterface {
  name = 'MerchantDpopBoundAccessTokens1700000000253';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE merchants ADD COLUMN dpop_bound_access_tokens boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE merchants DROP COLUMN dpop_bound_access_tokens`);
  }
}
