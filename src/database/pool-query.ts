import type { DataSource } from 'typeorm';

/** What the engine's storage asks of the database: DataSource.query's contract. */
export type Querier = Pick<DataSource, 'query'>;

interface PgResult {
  command: string;
  rows: unknown[];
  rowCount: number | null;
}
interface PgPool {
  query(sql: string, params?: unknown[]): Promise<PgResult>;
}

const byDataSource = new WeakMap<DataSource, Querier>();

/**
 * DataSource.query without TypeORM's per-query machinery (a query runner made and released, its logger and event
 * broadcaster asked, the error wrapped), on the same pool and with the same answers: rows, or [rows, count] for an
 * UPDATE or DELETE. For the engine's storage, whose few short queries make a code exchange; that machinery cost
 * about a tenth of an exchange's CPU (npm run profile:hot-path). The pool is TypeORM's own (the embedded database's
 * one connection included), so its bounds and waits are the same.
 */
export function poolQuery(dataSource: DataSource): Querier {
  let querier = byDataSource.get(dataSource);
  if (!querier) byDataSource.set(dataSource, (querier = make(dataSource)));
  return querier;
}

function make(dataSource: DataSource): Querier {
  const pool = (dataSource.driver as { master?: unknown }).master as PgPool | undefined;
  if (dataSource.options.type !== 'postgres' || typeof pool?.query !== 'function') return dataSource;
  return {
    query: async (sql: string, params?: unknown[]) => {
      const raw = await pool.query(sql, params);
      return raw.command === 'UPDATE' || raw.command === 'DELETE' ? [raw.rows, raw.rowCount] : raw.rows;
    },
  } as Querier;
}
