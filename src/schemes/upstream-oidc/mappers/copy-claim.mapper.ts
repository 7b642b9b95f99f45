import { type ClaimMapper, type MappedClaims, read } from './claim-mapper.js';

/** Copies an upstream claim under the same name (e.g. `email`, `given_name`), any JSON value. */
export class CopyClaimMapper implements ClaimMapper {
  constructor(private readonly claim: string) {}

  apply(upstream: Readonly<Record<string, unknown>>, out: MappedClaims): void {
    const value = read(upstream, out, this.claim);
    if (value !== undefined && value !== null) out.claims[this.claim] = value;
  }
}
