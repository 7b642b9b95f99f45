import { ConstantMapper } from '../../src/eid/upstream-oidc/mappers/constant.mapper.js';
import { CopyClaimMapper } from '../../src/eid/upstream-oidc/mappers/copy-claim.mapper.js';
import { DateFormatMapper, parseUpstreamDate } from '../../src/eid/upstream-oidc/mappers/date-format.mapper.js';
import { createMappers, mapClaims, mapperProblems } from '../../src/eid/upstream-oidc/mappers/index.js';
import { JoinNamesMapper } from '../../src/eid/upstream-oidc/mappers/join-names.mapper.js';
import { RegexMapper } from '../../src/eid/upstream-oidc/mappers/regex.mapper.js';
import { RenameClaimMapper } from '../../src/eid/upstream-oidc/mappers/rename-claim.mapper.js';
import { SplitNameMapper } from '../../src/eid/upstream-oidc/mappers/split-name.mapper.js';
import type { ClaimMapper } from '../../src/eid/upstream-oidc/mappers/claim-mapper.js';

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
    expect(run(new DateFormatMapper('exp', 'date_of_expiry', 'DD.MM.YYYY'), { exp: '2031-12-31T00:00:00Z' })).toEqual({ claims: { date_of_expiry: '31.12.2031' }, birthDate: undefined });
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
    expect(run(new JoinNamesMapper(['family_name', 'given_name'], 'other_identifier', ', '), { given_name: 'Kari', family_name: 'Nordmann' }).claims).toEqual({ other_identifier: 'Nordmann, Kari' });
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
    expect(() => new RegexMapper('a', 'b', 'x'.repeat(201), '')).toThrow(RangeError);
  });

  it('runs in order, each reading what earlier mappers wrote (a regex, then a date)', () => {
    const mappers = createMappers([
      { type: 'regex', from: 'born', to: 'birthdate', pattern: '^born (.*)$', replacement: '$1' },
      { type: 'date', from: 'birthdate', to: 'birthdate', format: 'DD.MM.YYYY' },
    ]);
    expect(mapClaims(mappers, { born: 'born 1985-03-07' })).toEqual({ claims: { birthdate: '07.03.1985' }, birthDate: '1985-03-07' });
  });

  it('refuses a configuration naming a claim no merchant could receive, or missing what its type needs', () => {
    expect(mapperProblems([{ type: 'copy', from: 'email' }, { type: 'constant', to: 'nationality', value: 'NOR' }])).toEqual({});
    expect(Object.keys(mapperProblems([
      { type: 'copy', from: 'nin' },
      { type: 'rename', from: 'x', to: 'sub' },
      { type: 'join', to: 'name' },
      { type: 'split_name', from: 'name', given: 'given_name' },
      { type: 'regex', from: 'a', to: 'name', pattern: '(', replacement: '' },
      { type: 'constant', to: 'acr', value: 'x' },
    ]))).toEqual(['claim_mappers.0.to', 'claim_mappers.1.to', 'claim_mappers.2.sources', 'claim_mappers.3.family', 'claim_mappers.4.pattern', 'claim_mappers.5.to']);
  });
});
