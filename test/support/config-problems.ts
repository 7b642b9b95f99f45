import { ConfigError } from '../../src/config/app-config.js';

/** The problems a configuration loader names (its ConfigError), or none when it loads; any other error is thrown. */
export function configProblems(load: () => unknown): string[] {
  try {
    load();
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  return [];
}
