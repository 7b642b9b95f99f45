import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, EntityManager } from 'typeorm';
import { poolQuery, type Querier } from '../../database/pool-query.js';

const ambient = new AsyncLocalStorage<EntityManager>();

/**
 * Runs `work` in one database transaction that the engine's own writes join: the engine saves its models
 * through the adapter, which cannot be handed a transaction, so the adapter takes the one in scope here.
 * Used where an engine write and ours must happen together or not at all (a CIBA request completed and its
 * callback queued).
 */
export function inEngineTransaction<T>(dataSource: DataSource, work: (manager: EntityManager) => Promise<T>): Promise<T> {
  return dataSource.transaction((manager) => ambient.run(manager, () => work(manager)));
}

/** The transaction in scope, if any, else the data source's pool (pool-query.ts). */
export function engineQueryRunner(dataSource: DataSource): Querier {
  return ambient.getStore() ?? poolQuery(dataSource);
}
