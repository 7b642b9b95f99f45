import { type ClaimMapper, type MappedClaims, readString } from './claim-mapper.js';

/**
 * Splits a full name (`Kari Anne Nordmann`) into given names and family name: the family name is the last
 * word, the rest are given names (the Western order most upstream `name` claims use; schemes that send
 * `given_name`/`family_name` need no split). A one-word name is a family name only.
 */
export class SplitNameMapper implements ClaimMapper {
  constructor(
    private readonly from: string,
    private readonly given: string,
    private readonly family: string,
  ) {}

  apply(upstream: Readonly<Record<string, unknown>>, out: MappedClaims): void {
    const words = readString(upstream, out, this.from)?.split(/\s+/);
    if (!words?.length) return;
    out.claims[this.family] = words[words.length - 1];
    if (words.length > 1) out.claims[this.given] = words.slice(0, -1).join(' ');
  }
}
