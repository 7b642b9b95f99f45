import { createToolingDataSource } from '../ormconfig.js';

/** `migrate.ts run` applies pending migrations; `migrate.ts revert` undoes the last one. */
const command = process.argv[2] ?? 'run';
const { dataSource, close } = await createToolingDataSource();
try {
  await dataSource.initialize();
  if (command === 'revert') {
    await dataSource.undoLastMigration({ transaction: 'each' });
    process.stdout.write('reverted the last migration\n');
  } else {
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    process.stdout.write(applied.length ? `applied: ${applied.map((m) => m.name).join(', ')}\n` : 'no pending migrations\n');
  }
} finally {
  await close();
}
