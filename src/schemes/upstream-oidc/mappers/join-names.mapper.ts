import { type ClaimMapper, type MappedClaims, readString } from './claim-mapper.js';

/** Joins claims in the order given (e.g. `given_name`, `family_name` → `name`), skipping missing ones. */
export class JoinNamesMapper implements ClaimMapper {
  constructor(
    private readonly sources: readonly string[],
    private readonly to: string,
    private readonly separator = ' ',
  ) {}

  apply(upstream: Readonly<Record<string, unknown>>, out: MappedClaims): void {
    const parts = this.sources.map((s) => readString(upstream, out, s)).filter((v): v is string => v !== undefined);
    if (parts.length) out.claims[this.to] = parts.join(this.separator);
  }
}
