import { logger } from '../../../common/logging/logger.js';
import { boundedReplace, MatchTimeout } from './bounded-replace.js';
import { type ClaimMapper, type MappedClaims, readString } from './claim-mapper.js';
import { regexPatternProblem } from './regex-safety.js';

/**
 * Rewrites a string claim with a regular expression (`replacement` may use `$1`…): e.g. drop the
 * country prefix of a national identity number. A value the pattern does not match gives no claim, so
 * a pattern written for one shape never passes another through unchanged.
 *
 * Patterns come from admins and values from upstreams, and a match runs on the event loop: the pattern
 * must be one whose backtracking the lengths bound (regexPatternProblem), and every match is stopped at
 * MATCH_TIMEOUT_MS anyway. A pattern stored before those rules that breaks them gives no claim (the
 * scheme logs why when it is loaded) instead of failing the login or the scheme.
 */
export class RegexMapper implements ClaimMapper {
  private readonly pattern: RegExp | undefined;

  constructor(
    private readonly from: string,
    private readonly to: string,
    pattern: string,
    private readonly replacement: string,
  ) {
    this.pattern = regexPatternProblem(pattern) === undefined ? new RegExp(pattern, 'u') : undefined;
  }

  apply(upstream: Readonly<Record<string, unknown>>, out: MappedClaims): void {
    if (!this.pattern) return;
    const value = readString(upstream, out, this.from);
    if (value === undefined) return;
    let mapped: string | undefined;
    try {
      mapped = boundedReplace(this.pattern, value, this.replacement);
    } catch (err) {
      if (!(err instanceof MatchTimeout)) throw err;
      // The value is personal data: the log names the mapper only.
      logger.warn({ from: this.from, to: this.to }, 'regex claim mapper stopped at its time limit; no claim');
      return;
    }
    if (mapped !== undefined) out.claims[this.to] = mapped;
  }
}
