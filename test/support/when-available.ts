/**
 * Tests that need something a fresh clone's `npm test` may not have (PostgreSQL in place of the embedded database,
 * a Debian tool). Without it they are skipped with the reason in their title, so the summary says why; under
 * CI=true they fail instead, naming what is missing, because a green CI must mean they ran.
 */
type TestBody = () => unknown;

export interface Requirement {
  available: boolean;
  /** What is missing, as the skipped test's title shows it: "no DATABASE_URL (PostgreSQL)", "qpdf not installed". */
  missing: string;
  /** How CI gets it, for the failing test's message ("apt-get install chromium"); default: .ci/run provides it. */
  install?: string;
}

const ciMessage = (r: Requirement) => `${r.missing}: CI runs this (${r.install ? `.ci/run: ${r.install}` : '.ci/run provides what it needs'})`;

export function itWhen(requirement: Requirement): (name: string, fn: TestBody, timeout?: number) => void {
  return (name, fn, timeout) => {
    if (requirement.available) return void it(name, fn as () => Promise<void>, timeout);
    if (process.env.CI === 'true')
      return void it(name, () => {
        throw new Error(ciMessage(requirement));
      });
    it.skip(`${name} [${requirement.missing}]`, fn as () => Promise<void>);
  };
}

export function describeWhen(requirement: Requirement, name: string, fn: () => void): void {
  if (requirement.available) return void describe(name, fn);
  if (process.env.CI === 'true')
    return void describe(name, () =>
      it(`needs what is missing: ${requirement.missing}`, () => {
        throw new Error(ciMessage(requirement));
      }),
    );
  describe.skip(`${name} [${requirement.missing}]`, fn);
}

/** PostgreSQL shared by two instances: DATABASE_URL (the embedded database is one instance's own). */
export const POSTGRES: Requirement = { available: Boolean(process.env.DATABASE_URL), missing: 'no DATABASE_URL (needs PostgreSQL)' };
