import type { DataSource } from 'typeorm';

/**
 * The number of rows in every table of the database (every schema but PostgreSQL's own), read from the catalog so
 * that a table added later is counted too: `schema.table` → count(*). For "this traffic wrote nothing" checks.
 */
export async function tableRows(dataSource: DataSource): Promise<Record<string, number>> {
  const tables = (await dataSource.query(
    `SELECT n.nspname AS schema, c.relname AS name FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
     WHERE c.relkind IN ('r', 'p') AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%' ORDER BY 1, 2`,
  )) as { schema: string; name: string }[];
  if (tables.length === 0) throw new Error('no tables found: not the database the service uses?');
  const counts: Record<string, number> = {};
  for (const { schema, name } of tables) {
    const quoted = `"${schema.replace(/"/g, '""')}"."${name.replace(/"/g, '""')}"`;
    counts[`${schema}.${name}`] = Number(((await dataSource.query(`SELECT count(*) AS n FROM ${quoted}`)) as { n: string }[])[0].n);
  }
  return counts;
}
