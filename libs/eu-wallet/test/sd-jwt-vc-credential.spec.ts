import { createHash, type KeyObject } from 'node:crypto';
import { verifySdJwtVcPresentation, type SdJwtVcPresentationInput, issueSdJwtVc, createTestSigner, type TestSigner } from '@identity-broker/eu-wallet';
import { AUDIENCE, NONCE, forge, holderKeys, makeDisclosure, outcome, present, resign } from './sd-jwt-holder.js';

type Change = Parameters<typeof resign>[2];

/** The issuer-signed credential: typ, alg, x5c trust, signature, vct, validity, digests (SD-JWT VC draft; RFC 9901 §7.1). */
describe('SD-JWT VC presentation: the issuer-signed credential', () => {
  const now = new Date();
  const day = 86_400_000;
  let pid: TestSigner;
  let other: TestSigner;
  let holder: { publicKey: KeyObject; privateKey: KeyObject };
  let credential: string;

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
  const presentOf = (cred: string, paths = ['$.given_name'], extra: (ds: string[]) => string[] = (ds) => ds) =>
    present(cred, { paths, holderKey: holder.privateKey, mutate: (jwt, ds) => [jwt, extra(ds)] });
  /** The credential with its issuer JWT changed and re-signed by the PID provider (so the change is all that differs). */
  const resigned = (change: Change, extra?: (ds: string[]) => string[]) =>
    present(credential, { paths: ['$.given_name'], holderKey: holder.privateKey, mutate: (jwt, ds) => [resign(jwt, pid, change), extra ? extra(ds) : ds] });

  beforeAll(async () => {
    [pid, other] = await Promise.all([
      createTestSigner({ rootName: 'Test PID Provider CA', signerName: 'Test PID Provider' }),
      createTestSigner({ rootName: 'Other CA', signerName: 'Other PID Provider' }),
    ]);
    holder = holderKeys();
    credential = await issueSdJwtVc({ signer: pid, holderKey: holder.publicKey });
  });

  it('re-signing without a change is accepted (the helper itself changes nothing else)', async () => {
    expect(await outcome(async () => verify(await resigned({})))).toBe('accepted');
  });

  it('refuses an expired credential and one not yet valid, within and beyond skew', async () => {
    const expired = await issueSdJwtVc({
      signer: pid,
      holderKey: holder.publicKey,
      issuedAt: new Date(now.getTime() - 10 * day),
      expiresAt: new Date(now.getTime() - day),
    });
    expect(await outcome(async () => verify(await presentOf(expired)))).toMatch(/^expired: /);
    const justExpired = await issueSdJwtVc({
      signer: pid,
      holderKey: holder.publicKey,
      issuedAt: new Date(now.getTime() - day),
      expiresAt: new Date(now.getTime() - 30_000),
    });
    expect(await outcome(async () => verify(await presentOf(justExpired)))).toBe('accepted');
    expect(await outcome(async () => verify(await presentOf(justExpired), { clockSkewSeconds: 0 }))).toMatch(/^expired: /);
    expect(await outcome(async () => verify(await resigned({ payload: (p) => (p.nbf = Math.floor(now.getTime() / 1000) + 600) })))).toMatch(/^expired: /);
    expect(await outcome(async () => verify(await resigned({ payload: (p) => (p.exp = 0) })))).toMatch(/^expired: /);
  });

  it('refuses an issuer whose chain ends at no trust anchor', async () => {
    expect(await outcome(async () => verify(await presentOf(credential), { trustAnchors: [other.root] }))).toMatch(/^untrusted_issuer: /);
    const foreign = await issueSdJwtVc({ signer: other, holderKey: holder.publicKey });
    expect(await outcome(async () => verify(await presentOf(foreign)))).toMatch(/^untrusted_issuer: /);
    expect(await outcome(async () => verify(await resigned({ header: (h) => delete h.x5c })))).toMatch(/^untrusted_issuer: .*no x5c/);
  });

  it('refuses a signature by another key than the x5c leaf, and a forged payload even when it is also expired', async () => {
    expect(
      await outcome(async () =>
        verify(await present(credential, { paths: ['$.given_name'], holderKey: holder.privateKey, mutate: (jwt, ds) => [resign(jwt, other, {}), ds] })),
      ),
    ).toMatch(/^invalid_signature: /);
    const forgeWith = (change: Change) =>
      present(credential, { paths: ['$.given_name'], holderKey: holder.privateKey, mutate: (jwt, ds) => [forge(jwt, change), ds] });
    expect(await outcome(async () => verify(await forgeWith({ payload: (p) => (p.iss = 'https://mallory.invalid') })))).toMatch(/^invalid_signature: /);
    expect(await outcome(async () => verify(await forgeWith({ payload: (p) => (p.exp = 1) })))).toMatch(/^invalid_signature: /);
  });

  it('refuses typ vc+sd-jwt, JWT, and no typ', async () => {
    const old = await issueSdJwtVc({ signer: pid, holderKey: holder.publicKey, header: { typ: 'vc+sd-jwt' } });
    expect(await outcome(async () => verify(await presentOf(old)))).toBe('unexpected_credential: the issuer JWT typ is not dc+sd-jwt');
    expect(await outcome(async () => verify(await resigned({ header: (h) => (h.typ = 'JWT') })))).toMatch(/^unexpected_credential: .*typ/);
    expect(await outcome(async () => verify(await resigned({ header: (h) => delete h.typ })))).toMatch(/^unexpected_credential: .*typ/);
  });

  it('refuses alg none, HS256 and RS256 whatever the signature', async () => {
    for (const alg of ['none', 'HS256', 'RS256']) {
      const presentation = await present(credential, {
        paths: ['$.given_name'],
        holderKey: holder.privateKey,
        mutate: (jwt, ds) => [forge(jwt, { header: (h) => (h.alg = alg) }), ds],
      });
      expect(await outcome(() => verify(presentation))).toMatch(/^unexpected_credential: issuer JWT alg/);
    }
  });

  it('refuses a vct not accepted, and a missing vct', async () => {
    const mdl = await issueSdJwtVc({ signer: pid, holderKey: holder.publicKey, vct: 'urn:eudi:ehic:1' });
    expect(await outcome(async () => verify(await presentOf(mdl)))).toBe('unexpected_credential: the credential vct is not accepted');
    expect(await outcome(async () => verify(await presentOf(credential), { acceptedVcts: ['urn:eudi:pid:de:1'] }))).toMatch(/^unexpected_credential: .*vct/);
    expect(await outcome(async () => verify(await resigned({ payload: (p) => delete p.vct })))).toMatch(/^unexpected_credential: .*vct/);
  });

  it('refuses _sd_alg other than sha-256, and time claims that are not numbers', async () => {
    expect(await outcome(async () => verify(await resigned({ payload: (p) => (p._sd_alg = 'sha-512') })))).toBe(
      'unexpected_credential: _sd_alg is not sha-256',
    );
    expect(await outcome(async () => verify(await resigned({ payload: (p) => (p.exp = 'never') })))).toMatch(/^malformed: issuer JWT exp/);
  });

  it('refuses a credential without cnf.jwk, or with a private key in it', async () => {
    expect(await outcome(async () => verify(await resigned({ payload: (p) => delete p.cnf })))).toMatch(/^wrong_binding: .*no cnf.jwk/);
    const withD = holderKeys().privateKey.export({ format: 'jwk' });
    expect(await outcome(async () => verify(await resigned({ payload: (p) => (p.cnf = { jwk: withD }) })))).toMatch(/^malformed: cnf.jwk/);
  });

  it('refuses a digest that occurs twice in the payload', async () => {
    const dup = (p: Record<string, unknown>) => (p._sd as string[]).push((p._sd as string[])[0]);
    expect(await outcome(async () => verify(await resigned({ payload: dup })))).toMatch(/^invalid_signature: a digest occurs more than once/);
  });

  it('refuses a disclosed name that already exists in the clear, and disclosures in the wrong kind of place', async () => {
    expect(await outcome(async () => verify(await resigned({ payload: (p) => (p.given_name = 'Clear') })))).toMatch(
      /^malformed: a disclosed claim name already exists/,
    );
    const element = makeDisclosure('FR');
    const elementDigest = createHash('sha256').update(element).digest('base64url');
    const inSd = await resigned({ payload: (p) => (p._sd as string[]).push(elementDigest) }, (ds) => [...ds, element]);
    expect(await outcome(() => verify(inSd))).toMatch(/^malformed: _sd refers to an array element disclosure/);
    const property = makeDisclosure('nationality', 'FR');
    const propertyDigest = createHash('sha256').update(property).digest('base64url');
    const inArray = await resigned({ payload: (p) => (p.list = [{ '...': propertyDigest }]) }, (ds) => [...ds, property]);
    expect(await outcome(() => verify(inArray))).toMatch(/^malformed: an array element refers to an object property disclosure/);
    const forbidden = makeDisclosure('_sd', ['x']);
    const forbiddenDigest = createHash('sha256').update(forbidden).digest('base64url');
    expect(
      await outcome(async () => verify(await resigned({ payload: (p) => (p._sd as string[]).push(forbiddenDigest) }, (ds) => [...ds, forbidden]))),
    ).toMatch(/^malformed: disclosure \d+ has an invalid claim name/);
  });

  it('returns no status for a credential without one, and refuses a status that is not a status_list reference', async () => {
    expect((await verify(await presentOf(credential))).status).toBeUndefined();
    expect(await outcome(async () => verify(await resigned({ payload: (p) => (p.status = { status_list: { idx: -1, uri: 'https://x.invalid' } }) })))).toMatch(
      /^malformed: status/,
    );
    expect(await outcome(async () => verify(await resigned({ payload: (p) => (p.status = { identifier_list: {} }) })))).toMatch(/^malformed: status/);
  });

  it('leaves cnf, _sd and _sd_alg out of the claims', async () => {
    const result = await verify(await presentOf(credential, ['$.given_name']));
    expect(result.claims).not.toHaveProperty('cnf');
    expect(result.claims).not.toHaveProperty('_sd');
    expect(result.claims).not.toHaveProperty('_sd_alg');
  });
});
