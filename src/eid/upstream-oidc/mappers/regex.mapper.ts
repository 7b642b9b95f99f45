import { type ClaimMapper, type MappedClaims, readString } from './claim-mapper.js';

/** Patterns are written by admins, yet bounded: a long pattern or value is where backtracking hurts. */
export const MAX_PATTERN_LENGTH = 200;

/**
 * Rewrites a string claim with a regular expression (`replacement` may use `$1`…): e.g. drop the
 * country prefix of a national identity number. A value the pattern does not match gives no claim, so
 * a pattern written for one shape never passes another through unchanged.
 */
export class RegexMapper implements ClaimMapper {
  private readonly pattern: RegExp;

  constructor(
    private readonly from: string,
    private readonly to: string,
    pattern: string,
    private readonly replacement: string,
  ) {
    if (pattern.length > MAX_PATTERN_LENGTH) throw new RangeError(`pattern longer than ${MAX_PATTERN_LENGTH} characters`);
    this.pattern = new RegExp(pattern, 'u');
  }

  apply(upstream: Readonly<Record<string, unknown>>, out: MappedClaims): void {
    const value = readString(upstream, out, this.from);
    if (value === undefined || !this.pattern.test(value)) return;
    out.claims[this.to] = value.replace(this.pattern, this.replacement);
  }
}
