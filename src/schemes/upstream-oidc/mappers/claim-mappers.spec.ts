import { boundedReplace, MatchTimeout } from './bounded-replace.js';
import { ConstantMapper } from './constant.mapper.js';
import { CopyClaimMapper } from './copy-claim.mapper.js';
import { DateFormatMapper, parseUpstreamDate } from './date-format.mapper.js';
import { createMappers, mapClaims, mapperProblems } from './index.js';
import { JoinNamesMapper } from './join-names.mapper.js';
import { RegexMapper } from './regex.mapper.js';
import { RenameClaimMapper } from './rename-claim.mapper.js';
import { SplitNameMapper } from './split-name.mapper.js';
import type { ClaimMapper } from './claim-mapper.js';

const run = (mapper: ClaimMapper, upstream: Record<string, unknown>) => mapClaims([mapper], upstream);

describe('upstream claim mappers', () => {
  it('copy: the same name, any JSON value; nothing for a missing or null claim', () => {
    expect(run(new CopyClaimMapper('email_verified'), { email_verified: true }).claims).toEqual({ email_verified: true });
    expect(run(new CopyClaimMapper('email'), { email: null }).claims).toEqual({});
  });

  it('rename: another name', () => {
    expect(run(new RenameClaimMapper('nin', 'personal_number'), { nin: '07038512345' }).claims).toEqual({ personal_number: '07038512345' });
    expect(run(new RenameClaimMapper('nin', 'personal_number'), {}).claims).toEqual({});
  });

  it('date: the spec formats from the shapes upstreams send; birthdate also gives the ISO date for age checks', () => {
    const spec = new DateFormatMapper('birthdate', 'birthdate', 'DD.MM.YYYY');
    expect(run(spec, { birthdate: '1985-03-07' })).toEqual({ claims: { birthdate: '07.03.1985' }, birthDate: '1985-03-07' });
    expect(run(spec, { birthdate: '19850307' }).claims).toEqual({ birthdate: '07.03.1985' });
    expect(run(new DateFormatMapper('dob', 'birthdate', 'YYYY-MM-DD'), { dob: '07.03.1985' }).claims).toEqual({ birthdate: '1985-03-07' });
    expect(run(new DateFormatMapper('exp', 'date_of_expiry', 'DD.MM.YYYY'), { exp: '2031-12-31T00:00:00Z' })).toEqual({
      claims: { date_of_expiry: '31.12.2031' },
      birthDate: undefined,
    });
    for (const bad of ['1985-02-30', '1985', '85-03-07', 'yesterday', '']) expect(parseUpstreamDate(bad)).toBeUndefined();
    expect(run(spec, { birthdate: 19850307 }).claims).toEqual({});
  });

  it('split_name: the last word is the family name, the rest given names', () => {
    const split = new SplitNameMapper('name', 'secondary_identifier', 'primary_identifier');
    expect(run(split, { name: '  Kari  Anne Nordmann ' }).claims).toEqual({ secondary_identifier: 'Kari Anne', primary_identifier: 'Nordmann' });
    expect(run(split, { name: 'Madonna' }).claims).toEqual({ primary_identifier: 'Madonna' });
    expect(run(split, { name: '' }).claims).toEqual({});
  });

  it('join: in order, skipping missing parts', () => {
    const join = new JoinNamesMapper(['given_name', 'middle_name', 'family_name'], 'name');
    expect(run(join, { given_name: 'Kari', family_name: 'Nordmann' }).claims).toEqual({ name: 'Kari Nordmann' });
    expect(run(new JoinNamesMapper(['family_name', 'given_name'], 'other_identifier', ', '), { given_name: 'Kari', family_name: 'Nordmann' }).claims).toEqual({
      other_identifier: 'Nordmann, Kari',
    });
    expect(run(join, {}).claims).toEqual({});
  });

  it('constant: always the value', () => {
    expect(run(new ConstantMapper('authentication_sources', 'REMOTE'), {}).claims).toEqual({ authentication_sources: 'REMOTE' });
  });

  it('regex: rewrites a matching value, gives nothing for one that does not match', () => {
    const strip = new RegexMapper('nin', 'personal_number', '^NO(\\d{11})$', '$1');
    expect(run(strip, { nin: 'NO07038512345' }).claims).toEqual({ personal_number: '07038512345' });
    expect(run(strip, { nin: 'SE198503071234' }).claims).toEqual({});
    expect(run(strip, { nin: `NO${'1'.repeat(2000)}` }).claims).toEqual({});
    // Longer than the admin API takes (a row from before): no claim rather than a scheme that fails to load.
    expect(run(new RegexMapper('nin', 'personal_number', 'x'.repeat(201), 'y'), { nin: 'x'.repeat(201) }).claims).toEqual({});
  });

  describe('regex patterns that can backtrack for seconds on an upstream value', () => {
    const NESTED = '^(a+)+$';
    const VALUE = `${'a'.repeat(28)}!`;
    const patternProblem = (pattern: string) =>
      mapperProblems([{ type: 'regex', from: 'nick', to: 'name', pattern, replacement: '$1' }])['claim_mappers.0.pattern'];

    it('are refused when configured, naming the field and why', () => {
      expect(patternProblem(NESTED)).toEqual([expect.stringContaining('repeats a group that holds a quantifier')]);
      const refused = ['(a|aa)*', '(\\d+-)+x', '(?=a)b', '(?<!a)b', '(a)\\1', '(?<x>a)\\k<x>', '^a*a*a*b$', '(.*)@(.*)', 'a{2000}', `^${'a?'.repeat(20)}b$`];
      for (const pattern of refused) expect([pattern, patternProblem(pattern)]).toEqual([pattern, [expect.any(String)]]);
      const accepted = [
        '^NO(\\d{11})$',
        'NO(\\d{11})',
        '^born (.*)$',
        '^([^,]+), (.+)$',
        '^(?<y>\\d{4})-(?<m>\\d{2})-(?<d>\\d{2})$',
        '^(?:\\+47)?(\\d{8})$',
        '^[ab]+$',
        '^(?:ab)+$',
        '^\\p{Lu}[\\]\\\\]*$',
      ];
      for (const pattern of accepted) expect([pattern, patternProblem(pattern)]).toEqual([pattern, undefined]);
    });

    it('one stored before the rules gives no claim, at once, instead of holding the event loop', () => {
      const before = process.cpuUsage();
      expect(run(new RegexMapper('nick', 'name', NESTED, '$1'), { nick: VALUE }).claims).toEqual({});
      const used = process.cpuUsage(before);
      expect((used.user + used.system) / 1000).toBeLessThan(1500);
    });

    it('every match stops at its time limit, the bound for anything the rules let through', () => {
      const started = Date.now();
      expect(() => boundedReplace(new RegExp(NESTED, 'u'), VALUE, '$1', 50)).toThrow(MatchTimeout);
      expect(Date.now() - started).toBeLessThan(1500);
      expect(boundedReplace(/^NO(\d{11})$/u, 'NO07038512345', '$1')).toBe('07038512345');
      expect(boundedReplace(/^NO(\d{11})$/u, 'SE198503071234', '$1')).toBeUndefined();
    });
  });

  it('runs in order, each reading what earlier mappers wrote (a regex, then a date)', () => {
    const mappers = createMappers([
      { type: 'regex', from: 'born', to: 'birthdate', pattern: '^born (.*)$', replacement: '$1' },
      { type: 'date', from: 'birthdate', to: 'birthdate', format: 'DD.MM.YYYY' },
    ]);
    expect(mapClaims(mappers, { born: 'born 1985-03-07' })).toEqual({ claims: { birthdate: '07.03.1985' }, birthDate: '1985-03-07' });
  });

  it('refuses a configuration naming a claim no merchant could receive, or missing what its type needs', () => {
    expect(
      mapperProblems([
        { type: 'copy', from: 'email' },
        { type: 'constant', to: 'nationality', value: 'NOR' },
      ]),
    ).toEqual({});
    expect(
      Object.keys(
        mapperProblems([
          { type: 'copy', from: 'nin' },
          { type: 'rename', from: 'x', to: 'sub' },
          { type: 'join', to: 'name' },
          { type: 'split_name', from: 'name', given: 'given_name' },
          { type: 'regex', from: 'a', to: 'name', pattern: '(', replacement: '' },
          { type: 'constant', to: 'acr', value: 'x' },
        ]),
      ),
    ).toEqual([
      'claim_mappers.0.to',
      'claim_mappers.1.to',
      'claim_mappers.2.sources',
      'claim_mappers.3.family',
      'claim_mappers.4.pattern',
      'claim_mappers.5.to',
    ]);
  });
});
