/**
 * Age verification claims for the `ageverifyNN` scopes (spec 2.3: "ageverify followed by one or
 * two digits"). A client asking for ageverify18 gets `age_over_18: true|false` and learns nothing
 * else: the claim is released without the birth date. The birth date itself stays gated by the
 * profile scope; that gating is done by scope in the broker (see claimsByScope), not here.
 */
import { daysInMonth, isLeapYear, parseIsoDate } from './dates.js';

export const AGE_VERIFY_SCOPE = /^ageverify\d{1,2}$/;

/** Names ageClaimName produces. */
export const AGE_OVER_CLAIM = /^age_over_\d{1,2}$/;

/**
 * Every scope AGE_VERIFY_SCOPE accepts: ageverify0..ageverify9 and ageverify00..ageverify99.
 * The one- and two-digit spellings are distinct scopes with distinct claims (ageverify5 ->
 * age_over_5, ageverify05 -> age_over_05) so each claim belongs to exactly one scope and the
 * client receives the claim name it asked for.
 */
export const AGE_VERIFY_SCOPES: readonly string[] = Object.freeze([
  ...Array.from({ length: 10 }, (_, n) => `ageverify${n}`),
  ...Array.from({ length: 100 }, (_, n) => `ageverify${String(n).padStart(2, '0')}`),
]);

/** 'ageverify18' -> 'age_over_18'; undefined for any other scope. The digits are kept as written. */
export function ageClaimName(scope: string): string | undefined {
  return AGE_VERIFY_SCOPE.test(scope) ? `age_over_${scope.slice('ageverify'.length)}` : undefined;
}

/**
 * `{ age_over_NN: boolean }` for each granted ageverifyNN scope (other scopes are ignored).
 *
 * Rules:
 * - "today" is the UTC calendar date of `now`;
 * - the holder has reached age N on the N-th birthday itself;
 * - someone born on 29 February reaches an age on 1 March in non-leap years (the day after
 *   28 February, which is how most legal systems count it, e.g. the UK and Germany);
 * - a partial birth date (ICAO unknown day and/or month, 'YYYY-MM' or 'YYYY') yields a claim only
 *   when every possible birth date in that month/year gives the same answer; otherwise the claim is
 *   omitted rather than guessed;
 * - no birth date at all: no claims.
 */
export function ageOverClaims(scopes: readonly string[], birthDateIso: string | undefined, now: Date): Record<string, boolean> {
  const result: Record<string, boolean> = {};
  const birth = birthDateIso === undefined ? undefined : parseIsoDate(birthDateIso);
  if (birth === undefined) return result;
  // Earliest and latest possible birth dates: equal for a full date.
  const earliest = { year: birth.year, month: birth.month ?? 1, day: birth.day ?? 1 };
  const latestMonth = birth.month ?? 12;
  const latest = { year: birth.year, month: latestMonth, day: birth.day ?? daysInMonth(birth.year, latestMonth) };
  const today = { year: now.getUTCFullYear(), month: now.getUTCMonth() + 1, day: now.getUTCDate() };
  for (const scope of scopes) {
    const name = ageClaimName(scope);
    if (name === undefined || name in result) continue;
    const age = Number(scope.slice('ageverify'.length));
    const surelyOver = hasReachedAge(latest, today, age);
    const possiblyOver = hasReachedAge(earliest, today, age);
    if (surelyOver === possiblyOver) result[name] = surelyOver;
  }
  return result;
}

interface YearMonthDay {
  year: number;
  month: number;
  day: number;
}

function hasReachedAge(birth: YearMonthDay, today: YearMonthDay, age: number): boolean {
  const year = birth.year + age;
  let { month, day } = birth;
  if (month === 2 && day === 29 && !isLeapYear(year)) {
    month = 3;
    day = 1;
  }
  return compare(today, { year, month, day }) >= 0;
}

function compare(a: YearMonthDay, b: YearMonthDay): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}
