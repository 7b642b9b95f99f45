import { formatIsoDate, parseIsoDate, type PartialDate, toSpecDate } from '../../../verifier-claims/dates.js';
import { type ClaimMapper, type MappedClaims, readString } from './claim-mapper.js';

/** The spec's two date formats: 2.1 (verifier claims, `birthdate`) and 2.4 (ISO, the standard claim). */
export const DATE_FORMATS = ['DD.MM.YYYY', 'YYYY-MM-DD'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];

/**
 * Reads a date as upstreams send it (ISO `YYYY-MM-DD`, also with a time after it; `YYYYMMDD`; `DD.MM.YYYY`)
 * and writes it in one of the spec's formats. An impossible date gives no claim. Writing `birthdate` also
 * records the ISO date for age checks (ageverifyNN), whatever format the claim is shown in.
 */
export class DateFormatMapper implements ClaimMapper {
  constructor(
    private readonly from: string,
    private readonly to: string,
    private readonly format: DateFormat,
  ) {}

  apply(upstream: Readonly<Record<string, unknown>>, out: MappedClaims): void {
    const raw = readString(upstream, out, this.from);
    const iso = raw === undefined ? undefined : parseUpstreamDate(raw);
    if (!iso) return;
    out.claims[this.to] = this.format === 'DD.MM.YYYY' ? toSpecDate(iso) : iso;
    if (this.to === 'birthdate') out.birthDate = iso;
  }
}

/** ISO `YYYY-MM-DD` of an upstream date, or undefined. Only full dates: a partial one is not guessed at. */
export function parseUpstreamDate(raw: string): string | undefined {
  let m: RegExpExecArray | null;
  let date: PartialDate | undefined;
  if ((m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ][0-9:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(raw))) date = parseIsoDate(`${m[1]}-${m[2]}-${m[3]}`);
  else if ((m = /^(\d{4})(\d{2})(\d{2})$/.exec(raw))) date = parseIsoDate(`${m[1]}-${m[2]}-${m[3]}`);
  else if ((m = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(raw))) date = parseIsoDate(`${m[3]}-${m[2]}-${m[1]}`);
  return date?.day !== undefined ? formatIsoDate(date) : undefined;
}
