import { SecondConnectionInTransactionError } from '../../src/database/transaction-guard.js';
import { inEngineTransaction } from '../../src/oidc/storage/engine-transaction.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * No flow that holds a transaction may wait on a second connection: on the embedded database (one connection) it
 * would wait forever and freeze the instance. The service's data source refuses such a request at once, on every
 * database, so the defect shows in any test that takes the path instead of in production after some minutes.
 */
describe.each([
  ['the embedded database', true],
  ['the configured database', false],
])('transactions on %s', (_name, embedded) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ embedded });
  }, 120_000);
  afterAll(() => t?.close());

  it('refuses a query on the pool from inside a transaction, at once, and rolls the transaction back', async () => {
    await t.dataSource.query('CREATE TABLE IF NOT EXISTS guard_probe (n int)');
    const started = Date.now();
    await expect(
      t.dataSource.transaction(async (tx) => {
        await tx.query('INSERT INTO guard_probe VALUES (1)');
        await t.dataSource.query('SELECT 1');
      }),
    ).rejects.toBeInstanceOf(SecondConnectionInTransactionError);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await t.dataSource.query('SELECT count(*)::int AS n FROM guard_probe')).toEqual([{ n: 0 }]);
  });

  it('refuses a repository read on the pool from inside the engine transaction too', async () => {
    await expect(inEngineTransaction(t.dataSource, () => t.dataSource.getRepository('MerchantEntity').count())).rejects.toBeInstanceOf(
      SecondConnectionInTransactionError,
    );
  });

  it("lets the transaction's own manager work, and nested transactions use its connection", async () => {
    const n = await t.dataSource.transaction(async (tx) => {
      await tx.query('SELECT 1');
      return tx.transaction(async (inner) => (await inner.query('SELECT 2 AS n'))[0].n as number);
    });
    expect(n).toBe(2);
  });

  it('frees work the transaction started once it has ended (a timer that outlives it)', async () => {
    let later!: Promise<unknown>;
    await t.dataSource.transaction(async () => {
      later = new Promise((resolve) => setTimeout(resolve, 50)).then(() => t.dataSource.query('SELECT 3 AS n'));
    });
    await expect(later).resolves.toEqual([{ n: 3 }]);
  });

  it('leaves the pool to everything outside a transaction, also while one is open elsewhere', async () => {
    const held = t.dataSource.transaction(async (tx) => {
      await tx.query('SELECT 1');
      await new Promise((resolve) => setTimeout(resolve, 100));
    });
    // Queued behind the open transaction on the embedded database's one connection, never refused.
    await expect(t.dataSource.query('SELECT 4 AS n')).resolves.toEqual([{ n: 4 }]);
    await held;
  });
});
