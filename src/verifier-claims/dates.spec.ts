import { birthDateFromDg11, birthDateFromMrz, expiryDateFromMrz, parseIsoDate, toSpecDate } from './dates.js';

const now = new Date('2026-11-22T12:00:00Z');

describe('birthDateFromMrz: century so the birth date is not in the future', () => {
  it.each([
    ['740812', '1974-08-12'],
    ['000229', '2000-02-29'],
    ['260101', '2026-01-01'],
    ['261122', '2026-11-22'], // born today
    ['261123', '1926-11-23'], // tomorrow in 2026 -> last century
    ['991231', '1999-12-31'],
    ['250615', '2025-06-15'],
  ])('%s -> %s', (mrz, iso) => {
    expect(birthDateFromMrz(mrz, now)).toBe(iso);
  });

  it('uses the UTC date of now', () => {
    // 23:30 at UTC-2 on 21 Nov is already 22 Nov in UTC.
    expect(birthDateFromMrz('261122', new Date('2026-11-21T23:30:00-02:00'))).toBe('2026-11-22');
    expect(birthDateFromMrz('261122', new Date('2026-11-21T23:30:00Z'))).toBe('1926-11-22');
  });

  it('keeps unknown day or day and month at reduced precision (ICAO 9303-3)', () => {
    expect(birthDateFromMrz('7408<<', now)).toBe('1974-08');
    expect(birthDateFromMrz('74<<<<', now)).toBe('1974');
    expect(birthDateFromMrz('7408XX', now)).toBe('1974-08');
    expect(birthDateFromMrz('74XXXX', now)).toBe('1974');
    expect(birthDateFromMrz('740800', now)).toBe('1974-08');
    expect(birthDateFromMrz('74<<12', now)).toBe('1974'); // a day without its month says nothing
    expect(birthDateFromMrz('26<<<<', now)).toBe('2026');
    expect(birthDateFromMrz('2612<<', now)).toBe('1926-12');
  });

  it('refuses unknown years and impossible dates', () => {
    expect(birthDateFromMrz('<<0812', now)).toBeUndefined();
    expect(birthDateFromMrz('741301', now)).toBeUndefined();
    expect(birthDateFromMrz('740431', now)).toBeUndefined();
    expect(birthDateFromMrz('010229', now)).toBeUndefined();
    expect(birthDateFromMrz('74081', now)).toBeUndefined();
    expect(birthDateFromMrz('ABCDEF', now)).toBeUndefined();
  });
});

describe('expiryDateFromMrz: century in [now - 50, now + 49]', () => {
  it.each([
    ['120415', '2012-04-15'],
    ['310101', '2031-01-01'],
    ['750101', '2075-01-01'],
    ['760101', '1976-01-01'],
    ['990101', '1999-01-01'],
    ['000229', '2000-02-29'],
  ])('%s -> %s', (mrz, iso) => {
    expect(expiryDateFromMrz(mrz, now)).toBe(iso);
  });

  it('moves with now', () => {
    expect(expiryDateFromMrz('760101', new Date('2027-01-01T00:00:00Z'))).toBe('2076-01-01');
    expect(expiryDateFromMrz('050101', new Date('2080-01-01T00:00:00Z'))).toBe('2105-01-01');
  });

  it('refuses unknown parts and impossible dates', () => {
    expect(expiryDateFromMrz('1204<<', now)).toBeUndefined();
    expect(expiryDateFromMrz('121315', now)).toBeUndefined();
    expect(expiryDateFromMrz('', now)).toBeUndefined();
  });
});

describe('birthDateFromDg11', () => {
  it('reads YYYYMMDD, including centuries the MRZ cannot express', () => {
    expect(birthDateFromDg11('19740812')).toBe('1974-08-12');
    expect(birthDateFromDg11('19240812')).toBe('1924-08-12');
    expect(birthDateFromDg11(' 20000229 ')).toBe('2000-02-29');
  });

  it('keeps unknown parts at reduced precision', () => {
    expect(birthDateFromDg11('19740800')).toBe('1974-08');
    expect(birthDateFromDg11('19740000')).toBe('1974');
    expect(birthDateFromDg11('1974<<<<')).toBe('1974');
  });

  it('refuses malformed and impossible dates', () => {
    expect(birthDateFromDg11('19740229')).toBeUndefined();
    expect(birthDateFromDg11('1974-08-12')).toBeUndefined();
    expect(birthDateFromDg11('740812')).toBeUndefined();
  });
});

describe('toSpecDate', () => {
  it('writes DD.MM.YYYY, with XX for unknown parts', () => {
    expect(toSpecDate('1974-08-12')).toBe('12.08.1974');
    expect(toSpecDate('2000-02-29')).toBe('29.02.2000');
    expect(toSpecDate('1974-08')).toBe('XX.08.1974');
    expect(toSpecDate('1974')).toBe('XX.XX.1974');
  });

  it('throws on anything that is not an ISO date', () => {
    expect(() => toSpecDate('12.08.1974')).toThrow(RangeError);
    expect(() => toSpecDate('1974-02-30')).toThrow(RangeError);
  });

  it('round-trips through parseIsoDate', () => {
    expect(parseIsoDate('1974-08-12')).toEqual({ year: 1974, month: 8, day: 12 });
    expect(parseIsoDate('1974-13')).toBeUndefined();
  });
});
