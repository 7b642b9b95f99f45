import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One wallet transaction per link: the flow (same device or cross device) is fixed when the transaction is made, and
 * the two links of one try share an `attempt`. A refused answer is noted (`failures`) rather than closing the
 * transaction. Transactions made before (flow chosen by the last fetch) live minutes; those not answered yet are
 * dropped, and their waiting page shows a fresh request.
 */
export class WalletTransactionPerLink1700000000243 implements MigrationInterface {
  name = 'WalletTransactionPerLink1700000000243';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM wallet_transactions WHERE flow IS NULL OR status IN ('created', 'request_fetched')`);
    await q.query(`ALTER TABLE wallet_transactions ALTER COLUMN flow SET NOT NULL`);
    await q.query(`ALTER TABLE wallet_transactions ADD CONSTRAINT wallet_transactions_flow CHECK (flow IN ('same_device', 'cross_device'))`);
    await q.query(`ALTER TABLE wallet_transactions ADD COLUMN attempt text`);
    await q.query(`UPDATE wallet_transactions SET attempt = id`);
    await q.query(`ALTER TABLE wallet_transactions ALTER COLUMN attempt SET NOT NULL`);
    await q.query(`ALTER TABLE wallet_transactions ADD COLUMN failures integer NOT NULL DEFAULT 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE wallet_transactions DROP COLUMN failures`);
    await q.query(`ALTER TABLE wallet_transactions DROP COLUMN attempt`);
    await q.query(`ALTER TABLE wallet_transactions DROP CONSTRAINT wallet_transactions_flow`);
    await q.query(`ALTER TABLE wallet_transactions ALTER COLUMN flow DROP NOT NULL`);
  }
}
