import { createContext, Script } from 'node:vm';
import { InternalError } from '../../../common/errors/app-error.js';

/**
 * How long one regex mapper may run on one value. JavaScript has no regex timeout on the main thread, but
 * a script run with `timeout` is stopped by V8 even inside a backtracking match. Patterns the admin API
 * accepts finish in well under this (see MAX_MATCH_STEPS); it is the bound for anything else.
 */
export const MATCH_TIMEOUT_MS = 100;

export class MatchTimeout extends InternalError {}

// One context for every match: it holds only the three inputs of the match running now (never at rest).
const context = createContext({ pattern: null, value: null, replacement: null });
const script = new Script('pattern.test(value) ? value.replace(pattern, replacement) : undefined', { filename: 'regex-mapper' });

/**
 * `value` rewritten by `pattern` (without the g flag: its first match), or undefined when it does not match;
 * MatchTimeout when the match ran longer than `timeoutMs` (measured by a watchdog thread, ~0.15 ms a call).
 */
export function boundedReplace(pattern: RegExp, value: string, replacement: string, timeoutMs = MATCH_TIMEOUT_MS): string | undefined {
  Object.assign(context, { pattern, value, replacement });
  try {
    return script.runInContext(context, { timeout: timeoutMs }) as string | undefined;
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw new MatchTimeout(`regex match stopped after ${timeoutMs} ms`);
    throw err;
  } finally {
    Object.assign(context, { pattern: null, value: null, replacement: null });
  }
}
