import { createToolingDataSource } from '../ormconfig.js';
import { runMigrationsLocked } from '../src/database/locked-migrations.js';

/** `migrate.ts run` applies pending migrations; `migrate.ts revert` undoes the last one. */
const command = process.argv[2] ?? 'run';
const { dataSource, close } = await createToolingDataSource();
try {
  await dataSource.initialize();
  if (command === 'revert') {
    await dataSource.undoLastMigration({ transaction: 'each' });
    process.stdout.write('reverted the last migration\n');
  } else {
    const applied = await runMigrationsLocked(dataSource, 'each');
    process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'no pending migrations\n');
  }
} finally {
  await close();
}
