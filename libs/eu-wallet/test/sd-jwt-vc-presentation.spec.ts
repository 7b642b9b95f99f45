import type { KeyObject } from 'node:crypto';
import { verifySdJwtVcPresentation, type SdJwtVcPresentationInput, issueSdJwtVc, createTestSigner, type TestSigner } from '@identity-broker/eu-wallet';
import { AUDIENCE, NONCE, decodeSegment, holderKeys, makeDisclosure, outcome, present, type PresentOptions } from './sd-jwt-holder.js';

/** Presentation and key binding: what the wallet adds (RFC 9901 §4.2, §4.3, §7.1, §7.3). */
describe('SD-JWT VC presentation: disclosures and key binding', () => {
  const now = new Date();
  let pid: TestSigner;
  let holder: { publicKey: KeyObject; privateKey: KeyObject };
  let credential: string;
  const asked = ['$.given_name', '$.age_equal_or_over.18', '$.nationalities[1]'];

  const verify = (presentation: string, overrides: Partial<SdJwtVcPresentationInput> = {}) =>
    verifySdJwtVcPresentation({
      presentation,
      trustAnchors: [pid.root],
      acceptedVcts: ['urn:eudi:pid:1'],
      nonce: NONCE,
      audience: AUDIENCE,
      now,
      ...overrides,
    });
  const presentWith = (options: Partial<PresentOptions> = {}) => present(credential, { paths: asked, holderKey: holder.privateKey, ...options });

  beforeAll(async () => {
    pid = await createTestSigner({ rootName: 'Test PID Provider CA', signerName: 'Test PID Provider', uri: 'https://pid-provider.test.invalid' });
    holder = holderKeys();
    credential = await issueSdJwtVc({ signer: pid, holderKey: holder.publicKey, status: { uri: 'https://pid-provider.test.invalid/status/1', idx: 7 } });
  });

  it('returns only the presented claims, the issuer, issuance, expiry and status reference', async () => {
    const result = await verify(await presentWith());
    expect(result.vct).toBe('urn:eudi:pid:1');
    expect(result.claims).toEqual({
      iss: 'https://pid-provider.test.invalid',
      vct: 'urn:eudi:pid:1',
      iat: expect.any(Number),
      exp: expect.any(Number),
      given_name: 'Erika',
      age_equal_or_over: { '18': true },
      nationalities: ['FR'],
    });
    expect(result.issuer.subject).toContain('CN=Test PID Provider');
    expect(result.issuer.anchorSubject).toContain('CN=Test PID Provider CA');
    expect(result.expiresAt!.getTime()).toBeGreaterThan(now.getTime());
    expect(result.issuedAt!.getTime()).toBe((result.claims.iat as number) * 1000);
    expect(result.status).toEqual({ uri: 'https://pid-provider.test.invalid/status/1', idx: 7 });
  });

  it('accepts a presentation of every claim, and of none', async () => {
    const all = await verify(
      await present(credential, { paths: ['$.family_name', '$.address.locality', '$.place_of_birth.country'], holderKey: holder.privateKey }),
    );
    expect(all.claims).toMatchObject({ family_name: 'Mustermann', address: { locality: 'Köln' }, place_of_birth: { country: 'DE' } });
    const none = await verify(await present(credential, { paths: [], holderKey: holder.privateKey }));
    expect(Object.keys(none.claims).sort()).toEqual(['exp', 'iat', 'iss', 'vct']);
  });

  it('refuses a tampered disclosure', async () => {
    const tamper = (jwt: string, ds: string[]): [string, string[]] => {
      const index = ds.findIndex((d) => JSON.parse(Buffer.from(d, 'base64url').toString())[1] === 'given_name');
      const [salt] = JSON.parse(Buffer.from(ds[index], 'base64url').toString());
      return [jwt, ds.map((d, i) => (i === index ? Buffer.from(JSON.stringify([salt, 'given_name', 'Mallory'])).toString('base64url') : d))];
    };
    expect(await outcome(async () => verify(await presentWith({ mutate: tamper })))).toMatch(/^invalid_signature: disclosure \d+ is not referenced/);
  });

  it('refuses a disclosure the credential does not reference (not silently dropped)', async () => {
    const extra = (jwt: string, ds: string[]): [string, string[]] => [jwt, [...ds, makeDisclosure('family_name', 'Mallory')]];
    expect(await outcome(async () => verify(await presentWith({ mutate: extra })))).toMatch(/^invalid_signature: disclosure 5 is not referenced/);
    const other = await issueSdJwtVc({ signer: pid, holderKey: holder.publicKey });
    const foreign = (await present(other, { paths: ['$.family_name'], holderKey: holder.privateKey })).split('~')[1];
    const borrowed = (jwt: string, ds: string[]): [string, string[]] => [jwt, [...ds, foreign]];
    expect(await outcome(async () => verify(await presentWith({ mutate: borrowed })))).toMatch(/^invalid_signature: disclosure \d+ is not referenced/);
  });

  it('refuses a disclosure presented twice', async () => {
    const twice = (jwt: string, ds: string[]): [string, string[]] => [jwt, [...ds, ds[0]]];
    expect(await outcome(async () => verify(await presentWith({ mutate: twice })))).toMatch(/^invalid_signature: disclosure 5 is presented twice/);
  });

  it('refuses a wrong nonce', async () => {
    expect(await outcome(async () => verify(await presentWith({ nonce: 'another-nonce' })))).toMatch(/^wrong_binding: .*nonce/);
  });

  it('refuses a KB-JWT aud without the client identifier prefix, of another verifier, or as an array', async () => {
    const bare = AUDIENCE.slice('x509_hash:'.length);
    expect(await outcome(async () => verify(await presentWith({ aud: bare })))).toMatch(/^wrong_binding: .*aud/);
    expect(await outcome(async () => verify(await presentWith({ aud: 'x509_hash:another-verifier' })))).toMatch(/^wrong_binding: .*aud/);
    expect(await outcome(async () => verify(await presentWith({ aud: [AUDIENCE] })))).toMatch(/^wrong_binding: .*aud/);
  });

  it('refuses a KB-JWT iat older than the allowed age or in the future beyond skew, accepts one within skew', async () => {
    const at = (s: number) => new Date(now.getTime() + s * 1000);
    expect(await outcome(async () => verify(await presentWith({ iat: at(-301) })))).toMatch(/^wrong_binding: .*older than 300 s/);
    expect(await outcome(async () => verify(await presentWith({ iat: at(-50) }), { keyBindingMaxAgeSeconds: 30 }))).toMatch(
      /^wrong_binding: .*older than 30 s/,
    );
    expect(await outcome(async () => verify(await presentWith({ iat: at(120) })))).toMatch(/^wrong_binding: .*in the future/);
    expect(await outcome(async () => verify(await presentWith({ iat: at(30) })))).toBe('accepted');
  });

  it('refuses a presentation without a KB-JWT', async () => {
    expect(await outcome(async () => verify(await presentWith({ withoutKb: true })))).toBe('wrong_binding: the presentation has no key binding JWT');
  });

  it('refuses a KB-JWT signed by another key than cnf.jwk', async () => {
    expect(await outcome(async () => verify(await presentWith({ holderKey: holderKeys().privateKey })))).toMatch(
      /^invalid_signature: .*not signed by the cnf key/,
    );
  });

  it('refuses a wrong sd_hash, and disclosures changed after the KB-JWT was made', async () => {
    expect(await outcome(async () => verify(await presentWith({ sdHash: 'x'.repeat(43) })))).toMatch(/^wrong_binding: .*sd_hash/);
    const full = (await presentWith()).split('~');
    const dropped = [full[0], ...full.slice(2)].join('~');
    expect(await outcome(() => verify(dropped))).toMatch(/^wrong_binding: .*sd_hash/);
  });

  it('refuses a KB-JWT without nonce, of another typ, or alg none', async () => {
    expect(await outcome(async () => verify(await presentWith({ nonce: '' })))).toMatch(/^wrong_binding: .*lacks iat, aud, nonce or sd_hash/);
    expect(await outcome(async () => verify(await presentWith({ kbHeader: { typ: 'JWT' } })))).toMatch(/^wrong_binding: .*typ is not kb\+jwt/);
    const presentation = await presentWith();
    const kb = presentation.split('~').pop()!;
    const [, payload] = kb.split('.');
    const header = Buffer.from(JSON.stringify({ ...decodeSegment(kb.split('.')[0]), alg: 'none' })).toString('base64url');
    const none = `${presentation.slice(0, -kb.length)}${header}.${payload}.AAAA`;
    expect(await outcome(() => verify(none))).toMatch(/^unexpected_credential: key binding JWT alg/);
  });
});
