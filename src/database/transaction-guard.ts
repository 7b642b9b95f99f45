import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, EntityManager } from 'typeorm';
import { InternalError } from '../common/errors/app-error.js';

/**
 * Raised when code that holds a transaction asks the pool for another connection. On the embedded database the
 * pool has one connection, held by that very transaction, so the request would wait forever and every query of the
 * instance would queue behind it; on PostgreSQL it takes a second connection from the pool per request in flight,
 * which a busy instance runs out of in the same way. Either way it is a programming error: pass the transaction's
 * manager down, or read what is needed before the transaction begins.
 */
export class SecondConnectionInTransactionError extends InternalError {
  constructor() {
    super("a second database connection was asked for while this flow holds a transaction; use the transaction's manager or read before it begins");
    this.name = 'SecondConnectionInTransactionError';
  }
}

interface HeldTransaction {
  open: boolean;
}

const held = new AsyncLocalStorage<HeldTransaction>();

type Transaction = EntityManager['transaction'];
type Work = (manager: EntityManager) => Promise<unknown>;

/**
 * Makes "a transaction waits on a second connection" fail at once instead of hanging, on every database and so in
 * every test: the work of each transaction runs marked (AsyncLocalStorage), and the driver refuses a connection to
 * any flow so marked while its transaction is open. Only the pool's connections are guarded: the transaction's own
 * query runner already has its connection, and work that outlives the transaction (a timer it started) is free again
 * once it ends.
 */
export function guardTransactions(dataSource: DataSource): void {
  const manager = dataSource.manager;
  const transaction = manager.transaction.bind(manager) as (isolationOrWork: unknown, work?: Work) => Promise<unknown>;
  manager.transaction = ((isolationOrWork: unknown, maybeWork?: Work) => {
    const work = (typeof isolationOrWork === 'function' ? isolationOrWork : maybeWork) as Work;
    const marked: Work = async (tx) => {
      const mark: HeldTransaction = { open: true };
      try {
        return await held.run(mark, () => work(tx));
      } finally {
        mark.open = false;
      }
    };
    return typeof isolationOrWork === 'function' ? transaction(marked) : transaction(isolationOrWork, marked);
  }) as Transaction;

  const driver = dataSource.driver as unknown as { obtainMasterConnection(): Promise<unknown> };
  const obtain = driver.obtainMasterConnection.bind(driver);
  driver.obtainMasterConnection = () => (held.getStore()?.open ? Promise.reject(new SecondConnectionInTransactionError()) : obtain());
}
