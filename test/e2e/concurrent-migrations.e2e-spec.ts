import { DataSource } from 'typeorm';
import { openServiceDatabase } from '../../src/bootstrap/scheme-manifests.js';
import { runMigrationsLocked } from '../../src/database/locked-migrations.js';
import { SERVICE_MIGRATIONS as MIGRATIONS } from '../../src/bootstrap/scheme-manifests.js';
import { createTestDatabase } from '../support/test-database.js';
import { describeWhen, POSTGRES } from '../support/when-available.js';

/**
 * Instances that start together on a new database (a Deployment's first rollout, replicas: 2) run the migrations
 * one after the other under an advisory lock: both start, the schema is built once. Without the lock TypeORM lets
 * both run the first migration at once.
 */
describeWhen(POSTGRES, 'migrations run by instances starting together', () => {
  const open = async (url: string) => {
    const handle = await openServiceDatabase({ kind: 'postgres', url });
    return new DataSource(handle.options).initialize();
  };

  it('take turns under the lock: one applies every migration, the others find none pending', async () => {
    const database = await createTestDatabase();
    const sources = await Promise.all([open(database.url!), open(database.url!), open(database.url!)]);
    try {
      const applied = await Promise.all(sources.map((s) => runMigrationsLocked(s)));
      expect(applied.map((names) => names.length).sort((a, b) => a - b)).toEqual([0, 0, MIGRATIONS.length]);
      const rows: { name: string }[] = await sources[0].query('SELECT name FROM migrations');
      expect(rows).toHaveLength(MIGRATIONS.length);
      // The lock is released: a later start takes it at once and finds nothing to do.
      expect(await runMigrationsLocked(sources[1])).toEqual([]);
    } finally {
      await Promise.all(sources.map((s) => s.destroy()));
      await database.drop();
    }
  }, 60_000);

  it('without it, the same start fails for one of them (the race the lock removes)', async () => {
    const database = await createTestDatabase();
    const sources = await Promise.all([open(database.url!), open(database.url!)]);
    try {
      const outcomes = await Promise.allSettled(sources.map((s) => s.runMigrations({ transaction: 'all' })));
      expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    } finally {
      await Promise.all(sources.map((s) => s.destroy()));
      await database.drop();
    }
  }, 60_000);
});
