import {
  buildDcqlQuery,
  checkVpTokenAgainstQuery,
  MDL_DOCTYPE,
  PID_MDOC_DOCTYPE,
  PID_SD_JWT_VCT,
  validateDcqlQuery,
  type DcqlQuery,
} from '@identity-broker/eu-wallet';
import { refusal } from '../../../test/support/wallet/jose-wallet.js';

describe('DCQL query (OpenID4VP 1.0 §6) and the vp_token that answers it (§8.1)', () => {
  const query = buildDcqlQuery([
    { id: 'pid_sd_jwt', format: 'dc+sd-jwt', vct: [PID_SD_JWT_VCT], claims: [['family_name'], ['address', 'postal_code']] },
    { id: 'pid_mdoc', format: 'mso_mdoc', doctype: PID_MDOC_DOCTYPE, claims: [[PID_MDOC_DOCTYPE, 'family_name']] },
    { id: 'mdl', format: 'mso_mdoc', doctype: MDL_DOCTYPE, claims: [['org.iso.18013.5.1', 'family_name']] },
  ]);

  it('offers the kinds as alternatives of one required credential set, with 1.0 meta and claims paths', () => {
    expect(query).toEqual({
      credentials: [
        {
          id: 'pid_sd_jwt',
          format: 'dc+sd-jwt',
          meta: { vct_values: ['urn:eudi:pid:1'] },
          claims: [{ path: ['family_name'] }, { path: ['address', 'postal_code'] }],
        },
        {
          id: 'pid_mdoc',
          format: 'mso_mdoc',
          meta: { doctype_value: 'eu.europa.ec.eudi.pid.1' },
          claims: [{ path: ['eu.europa.ec.eudi.pid.1', 'family_name'], intent_to_retain: false }],
        },
        {
          id: 'mdl',
          format: 'mso_mdoc',
          meta: { doctype_value: 'org.iso.18013.5.1.mDL' },
          claims: [{ path: ['org.iso.18013.5.1', 'family_name'], intent_to_retain: false }],
        },
      ],
      credential_sets: [{ options: [['pid_sd_jwt'], ['pid_mdoc'], ['mdl']], required: true }],
    });
    expect(buildDcqlQuery([{ id: 'pid', format: 'dc+sd-jwt', vct: [PID_SD_JWT_VCT], claims: [['given_name']] }])).not.toHaveProperty('credential_sets');
  });

  it('refuses queries 1.0 does not allow', () => {
    const sd = { id: 'a', format: 'dc+sd-jwt' as const, vct: [PID_SD_JWT_VCT], claims: [['x']] };
    expect(() => buildDcqlQuery([])).toThrow(/non-empty/);
    expect(() => buildDcqlQuery([sd, sd])).toThrow(/appears twice/);
    expect(() => buildDcqlQuery([{ ...sd, id: 'a b' }])).toThrow(/credential id/);
    expect(() => buildDcqlQuery([{ ...sd, vct: [] }])).toThrow(/vct_values/);
    expect(() => buildDcqlQuery([{ ...sd, claims: [['x'], ['x']] }])).toThrow(/asked twice/);
    expect(() => buildDcqlQuery([{ ...sd, claims: [[]] }])).toThrow(/non-empty/);
    expect(() => validateDcqlQuery({ credentials: [{ id: 'm', format: 'mso_mdoc', meta: { doctype_value: 'd' }, claims: [{ path: ['only-one'] }] }] })).toThrow(
      /namespace, element/,
    );
    expect(() =>
      validateDcqlQuery({ credentials: [{ id: 'a', format: 'dc+sd-jwt', meta: { vct_values: ['v'] } }], credential_sets: [{ options: [['b']] }] }),
    ).toThrow(/unknown id/);
  });

  it('offers optional claims through claim_sets (1.0 §6.4.1): ids on every claim, each subset of the optional ones, largest first', () => {
    const [credential] = buildDcqlQuery([{ id: 'a', format: 'dc+sd-jwt', vct: ['v'], claims: [['x']], optionalClaims: [['y'], ['z']] }]).credentials;
    expect(credential).toEqual({
      id: 'a',
      format: 'dc+sd-jwt',
      meta: { vct_values: ['v'] },
      claims: [
        { id: 'c0', path: ['x'] },
        { id: 'c1', path: ['y'] },
        { id: 'c2', path: ['z'] },
      ],
      claim_sets: [['c0', 'c1', 'c2'], ['c0', 'c1'], ['c0', 'c2'], ['c0']],
    });
    expect(() =>
      buildDcqlQuery([{ id: 'a', format: 'dc+sd-jwt', vct: ['v'], claims: [['x']], optionalClaims: [['o1'], ['o2'], ['o3'], ['o4'], ['o5']] }]),
    ).toThrow(/at most 4 optional/);
    const withSets = (claims: { id?: string; path: string[] }[], sets: string[][]) => () =>
      validateDcqlQuery({ credentials: [{ id: 'a', format: 'dc+sd-jwt', meta: { vct_values: ['v'] }, claims, claim_sets: sets }] });
    expect(withSets([{ path: ['x'] }], [['c0']])).toThrow(/unique id/);
    expect(
      withSets(
        [
          { id: 'c0', path: ['x'] },
          { id: 'c0', path: ['y'] },
        ],
        [['c0']],
      ),
    ).toThrow(/unique id/);
    expect(withSets([{ id: 'c0', path: ['x'] }], [])).toThrow(/claim_sets, when present, must be non-empty/);
    expect(withSets([{ id: 'c0', path: ['x'] }], [['c1']])).toThrow(/list of claim ids/);
  });

  it('accepts each allowed option with exactly one presentation', () => {
    expect(checkVpTokenAgainstQuery({ pid_sd_jwt: ['eyJ...~kb'] }, query)).toEqual({ pid_sd_jwt: ['eyJ...~kb'] });
    expect(checkVpTokenAgainstQuery({ mdl: ['o2d2ZXJzaW9u'] }, query)).toEqual({ mdl: ['o2d2ZXJzaW9u'] });
  });

  it('refuses values that are not non-empty arrays of strings (1.0 §8.1; drafts allowed a bare string)', async () => {
    expect(await refusal(() => checkVpTokenAgainstQuery({ pid_sd_jwt: [] }, query))).toBe('malformed: vp_token.pid_sd_jwt is an empty array');
    expect(await refusal(() => checkVpTokenAgainstQuery({ pid_sd_jwt: 'eyJ...' }, query))).toMatch(/^malformed: vp_token.pid_sd_jwt is not an array/);
    expect(await refusal(() => checkVpTokenAgainstQuery({ pid_sd_jwt: [{}] }, query))).toMatch(/^malformed: .*not a non-empty string/);
    expect(await refusal(() => checkVpTokenAgainstQuery({ pid_sd_jwt: [''] }, query))).toMatch(/^malformed: /);
    expect(await refusal(() => checkVpTokenAgainstQuery(['eyJ'], query))).toMatch(/^malformed: vp_token is not a JSON object/);
    expect(await refusal(() => checkVpTokenAgainstQuery('{"pid_sd_jwt":["x"]}', query))).toMatch(/^malformed: vp_token is not a JSON object/);
    expect(await refusal(() => checkVpTokenAgainstQuery({}, query))).toBe('malformed: vp_token has no entries');
  });

  it('refuses unknown ids, a second presentation without multiple, and answers that are no allowed option', async () => {
    expect(await refusal(() => checkVpTokenAgainstQuery({ other: ['x'] }, query))).toMatch(/^unexpected_credential: .*other, which the request did not have/);
    expect(await refusal(() => checkVpTokenAgainstQuery({ pid_sd_jwt: ['x', 'y'] }, query))).toMatch(/^unexpected_credential: .*allows one/);
    expect(await refusal(() => checkVpTokenAgainstQuery({ pid_sd_jwt: ['x'], pid_mdoc: ['y'] }, query))).toMatch(
      /^unexpected_credential: .*none of the options/,
    );
    const both: DcqlQuery = { credentials: [...query.credentials.slice(0, 2)] };
    expect(await refusal(() => checkVpTokenAgainstQuery({ pid_sd_jwt: ['x'] }, both))).toMatch(/^unexpected_credential: .*none of the options/);
    expect(checkVpTokenAgainstQuery({ pid_sd_jwt: ['x'], pid_mdoc: ['y'] }, both)).toEqual({ pid_sd_jwt: ['x'], pid_mdoc: ['y'] });
  });

  it('follows credential_sets: required sets answered, optional ones may be, multiple allows several', async () => {
    const sets: DcqlQuery = {
      credentials: [
        { id: 'a', format: 'dc+sd-jwt', meta: { vct_values: ['v'] }, multiple: true },
        { id: 'b', format: 'dc+sd-jwt', meta: { vct_values: ['v'] } },
        { id: 'c', format: 'dc+sd-jwt', meta: { vct_values: ['v'] } },
      ],
      credential_sets: [{ options: [['a'], ['b']] }, { options: [['c']], required: false }],
    };
    expect(checkVpTokenAgainstQuery({ a: ['1', '2'] }, sets)).toEqual({ a: ['1', '2'] });
    expect(checkVpTokenAgainstQuery({ b: ['1'], c: ['2'] }, sets)).toEqual({ b: ['1'], c: ['2'] });
    expect(await refusal(() => checkVpTokenAgainstQuery({ c: ['2'] }, sets))).toMatch(/^unexpected_credential: /);
    expect(await refusal(() => checkVpTokenAgainstQuery({ a: ['1'], b: ['2'] }, sets))).toMatch(/^unexpected_credential: /);
  });
});
