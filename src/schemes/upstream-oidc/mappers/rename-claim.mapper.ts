import { type ClaimMapper, type MappedClaims, read } from './claim-mapper.js';

/** Puts an upstream claim under another name (e.g. `nin` → `personal_number`). */
export class RenameClaimMapper implements ClaimMapper {
  constructor(
    private readonly from: string,
    private readonly to: string,
  ) {}

  apply(upstream: Readonly<Record<string, unknown>>, out: MappedClaims): void {
    const value = read(upstream, out, this.from);
    if (value !== undefined && value !== null) out.claims[this.to] = value;
  }
}
