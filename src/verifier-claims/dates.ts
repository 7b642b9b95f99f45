/**
 * Date handling for verifier claims. The MRZ stores dates as YYMMDD, so the century has to be
 * inferred; DG11 stores a full YYYYMMDD date of birth and is preferred when present.
 *
 * Internally dates are ISO 8601 strings. ICAO 9303-3 allows the day, or the day and month, of a
 * date of birth to be unknown (MRZ '<<', visual zone 'XX'); such dates are kept at reduced
 * precision, which ISO 8601 allows: 'YYYY-MM' (day unknown) or 'YYYY' (day and month unknown).
 * toSpecDate renders the unknown parts as 'XX', the way the document's visual zone shows them.
 */

export interface PartialDate {
  year: number;
  /** 1..12, undefined when unknown */
  month?: number;
  /** 1..31, undefined when unknown (then month may still be known) */
  day?: number;
}

/** Markers for an unknown day or month: MRZ filler, visual-zone 'XX', and '00' (never a real day or month). */
const UNKNOWN_PART = /^(<<|XX|00)$/i;

/** Parses 'YYYY-MM-DD', 'YYYY-MM' or 'YYYY' (the forms this module produces); undefined when malformed or impossible. */
export function parseIsoDate(iso: string): PartialDate | undefined {
  const m = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(iso);
  if (!m) return undefined;
  const date: PartialDate = { year: Number(m[1]) };
  if (m[2] !== undefined) date.month = Number(m[2]);
  if (m[3] !== undefined) date.day = Number(m[3]);
  return isPossible(date) ? date : undefined;
}

/** ISO 8601 at the precision known: 'YYYY-MM-DD', 'YYYY-MM' or 'YYYY'. */
export function formatIsoDate(date: PartialDate): string {
  const parts = [String(date.year).padStart(4, '0')];
  if (date.month !== undefined) parts.push(pad2(date.month));
  if (date.month !== undefined && date.day !== undefined) parts.push(pad2(date.day));
  return parts.join('-');
}

/**
 * MRZ date of birth (YYMMDD) -> ISO date. The century is the latest one that does not put the
 * birth date after `now` (UTC date): a 2-digit year can only be ambiguous between "this century"
 * and "last century", and a birth date cannot lie in the future. People over 100 are therefore
 * read 100 years too young; DG11's full date (birthDateFromDg11) fixes that where the chip has it.
 * Unknown day / day and month give 'YYYY-MM' / 'YYYY'. Unknown year or impossible date: undefined.
 */
export function birthDateFromMrz(yymmdd: string, now: Date): string | undefined {
  const parsed = parseYyMmDd(yymmdd);
  if (!parsed) return undefined;
  const today = utcDate(now);
  let year = century(today.year) + parsed.yy;
  // Compare the earliest day the (possibly partial) date can denote with today.
  if (compare({ year, month: parsed.month ?? 1, day: parsed.day ?? 1 }, today) > 0) year -= 100;
  const date: PartialDate = { year, month: parsed.month, day: parsed.day };
  return isPossible(date) ? formatIsoDate(date) : undefined;
}

/**
 * MRZ date of expiry (YYMMDD) -> 'YYYY-MM-DD'. The century puts the year in the window
 * [now - 50, now + 49] (UTC years): documents are valid for at most a few decades and
 * expired documents are still read, so the nearest century either way is the right one.
 * Expiry dates have no unknown parts in ICAO 9303; any '<'/'X' or impossible date gives undefined.
 */
export function expiryDateFromMrz(yymmdd: string, now: Date): string | undefined {
  if (!/^\d{6}$/.test(yymmdd)) return undefined;
  const nowYear = now.getUTCFullYear();
  let year = century(nowYear) + Number(yymmdd.slice(0, 2));
  if (year > nowYear + 49) year -= 100;
  else if (year < nowYear - 50) year += 100;
  const date = { year, month: Number(yymmdd.slice(2, 4)), day: Number(yymmdd.slice(4, 6)) };
  return isPossible(date) ? formatIsoDate(date) : undefined;
}

/**
 * DG11 full date of birth (YYYYMMDD, ICAO 9303-10 §4.7.11) -> ISO date; unknown month/day
 * ('00', '<<', 'XX') give reduced precision as for the MRZ. Malformed or impossible: undefined.
 */
export function birthDateFromDg11(yyyymmdd: string): string | undefined {
  const text = yyyymmdd.trim();
  if (!/^\d{4}[\dX<]{4}$/i.test(text)) return undefined;
  const parts = splitMonthDay(text.slice(4, 6), text.slice(6, 8));
  if (!parts) return undefined;
  const date: PartialDate = { year: Number(text.slice(0, 4)), ...parts };
  return isPossible(date) ? formatIsoDate(date) : undefined;
}

/** ISO 'YYYY-MM-DD' -> spec 2.1 'DD.MM.YYYY'; partial dates -> 'XX.MM.YYYY' / 'XX.XX.YYYY'. */
export function toSpecDate(iso: string): string {
  const date = parseIsoDate(iso);
  if (!date) throw new RangeError(`not an ISO date: ${iso}`);
  const day = date.day === undefined ? 'XX' : pad2(date.day);
  const month = date.month === undefined ? 'XX' : pad2(date.month);
  return `${day}.${month}.${String(date.year).padStart(4, '0')}`;
}

interface YyMmDd {
  yy: number;
  month?: number;
  day?: number;
}

function parseYyMmDd(text: string): YyMmDd | undefined {
  if (!/^\d{2}[\dX<]{4}$/i.test(text)) return undefined;
  const parts = splitMonthDay(text.slice(2, 4), text.slice(4, 6));
  return parts ? { yy: Number(text.slice(0, 2)), ...parts } : undefined;
}

/**
 * Month and day, either of which may be unknown. A known day with an unknown month carries no
 * usable information (ICAO only allows "day unknown" or "day and month unknown"), so the day is
 * dropped and only the year remains.
 */
function splitMonthDay(mm: string, dd: string): { month?: number; day?: number } | undefined {
  const monthUnknown = UNKNOWN_PART.test(mm);
  const dayUnknown = UNKNOWN_PART.test(dd);
  if ((!monthUnknown && !/^\d\d$/.test(mm)) || (!dayUnknown && !/^\d\d$/.test(dd))) return undefined;
  if (monthUnknown) return {};
  return dayUnknown ? { month: Number(mm) } : { month: Number(mm), day: Number(dd) };
}

function isPossible(date: PartialDate): boolean {
  if (date.month === undefined) return date.day === undefined;
  if (date.month < 1 || date.month > 12) return false;
  if (date.day === undefined) return true;
  return date.day >= 1 && date.day <= daysInMonth(date.year, date.month);
}

/** Gregorian leap year rule. */
export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Days in a month (1..12) of a year; arithmetic rather than Date, which maps years 0..99 to 19xx. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function utcDate(now: Date): { year: number; month: number; day: number } {
  return { year: now.getUTCFullYear(), month: now.getUTCMonth() + 1, day: now.getUTCDate() };
}

function century(year: number): number {
  return year - (year % 100);
}

function compare(a: { year: number; month: number; day: number }, b: { year: number; month: number; day: number }): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}
