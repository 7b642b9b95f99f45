import { type DataSource, MigrationExecutor } from 'typeorm';
import { JOB_LOCK_NAMESPACE, jobLockKey } from './exclusive-jobs.js';

const MIGRATION_LOCK_KEY = jobLockKey('schema-migrations');

/**
 * Runs the pending migrations under a session-level advisory lock held on the very connection that runs them, so
 * instances starting together on a new database (a Deployment's first rollout with two replicas) take turns and
 * the later ones find nothing pending. TypeORM takes no lock of its own: both would run the first migration and
 * one would fail its start on "relation already exists". One connection throughout: the lock never waits on
 * another connection of the pool (the embedded database has only one). Returns the names of the migrations run.
 */
export async function runMigrationsLocked(dataSource: DataSource, transaction: 'all' | 'each' = 'all'): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1, $2)', [JOB_LOCK_NAMESPACE, MIGRATION_LOCK_KEY]);
    try {
      const executor = new MigrationExecutor(dataSource, runner);
      executor.transaction = transaction;
      return (await executor.executePendingMigrations()).map((m) => m.name);
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1, $2)', [JOB_LOCK_NAMESPACE, MIGRATION_LOCK_KEY]);
    }
  } finally {
    await runner.release();
  }
}
