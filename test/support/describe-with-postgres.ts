import { canShareDatabase } from './test-app.js';

/**
 * `describe` for tests that need PostgreSQL (two instances on one database): skipped on the embedded database of a
 * fresh clone's `npm test`, but never under CI=true, where a missing DATABASE_URL fails instead of skipping.
 */
export function describeWithPostgres(name: string, tests: () => void): void {
  if (canShareDatabase()) describe(name, tests);
  else if (process.env.CI === 'true') describe(name, () => it('runs on PostgreSQL (DATABASE_URL must be set under CI)', () => expect(process.env.DATABASE_URL).toBeTruthy()));
  else describe.skip(name, tests);
}
