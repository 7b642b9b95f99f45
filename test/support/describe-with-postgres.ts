import { describeWhen, POSTGRES } from './when-available.js';

/**
 * `describe` for tests that need PostgreSQL (two instances on one database): skipped on the embedded database of a
 * fresh clone's `npm test` (the reason in the title), but never under CI=true, where a missing DATABASE_URL fails.
 */
export function describeWithPostgres(name: string, tests: () => void): void {
  describeWhen(POSTGRES, name, tests);
}
