import type { ClaimMapper, MappedClaims } from './claim-mapper.js';

/** A fixed value, e.g. `authentication_sources: REMOTE` or `issuing_country: NOR` for a national scheme. */
export class ConstantMapper implements ClaimMapper {
  constructor(
    private readonly to: string,
    private readonly value: string,
  ) {}

  apply(_upstream: Readonly<Record<string, unknown>>, out: MappedClaims): void {
    out.claims[this.to] = this.value;
  }
}
