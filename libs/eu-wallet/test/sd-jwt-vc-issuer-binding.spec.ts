import { verifySdJwtVcPresentation, issueSdJwtVc, createTestSigner, type TestSigner } from '@identity-broker/eu-wallet';
import { AUDIENCE, NONCE, forge, holderKeys, outcome, present } from './sd-jwt-holder.js';

/**
 * `iss` against the x5c leaf (docs/eu-wallet.md, "Trust and revocation"; SD-JWT VC draft -13 §3.5 and §10.2, with the
 * matching rule of drafts -05 to -09 §3.5): an equal SAN URI, or an https iss whose host is a SAN dNSName; no iss at
 * all names the leaf's subject. Credentials from the specimen issuer, presented by the holder library (@meeco/sd-jwt).
 */
describe('SD-JWT VC presentation: iss is named by the x5c leaf', () => {
  const holder = holderKeys();
  let byUri: TestSigner;
  let byDns: TestSigner;
  let unnamed: TestSigner;

  const verify = (presentation: string, signer: TestSigner) =>
    verifySdJwtVcPresentation({
      presentation,
      trustAnchors: [signer.root],
      acceptedVcts: ['urn:eudi:pid:1'],
      nonce: NONCE,
      audience: AUDIENCE,
      now: new Date(),
    });
  const issuedAs = async (signer: TestSigner, iss: unknown) => {
    // iss in the clear (a registered claim that is never disclosable, SD-JWT VC -13 §3.2.2.2), of any type a test wants.
    const claims = iss === undefined ? { given_name: 'Erika' } : { iss, given_name: 'Erika' };
    const credential = await issueSdJwtVc({ signer, holderKey: holder.publicKey, iss: null, claims, disclosureFrame: { _sd: ['given_name'] } });
    return outcome(async () => verify(await present(credential, { paths: ['$.given_name'], holderKey: holder.privateKey }), signer));
  };

  beforeAll(async () => {
    [byUri, byDns, unnamed] = await Promise.all([
      createTestSigner({ rootName: 'PID CA 1', signerName: 'PID Provider 1', uri: 'https://pid.example/issuer' }),
      createTestSigner({ rootName: 'PID CA 2', signerName: 'PID Provider 2', dnsName: 'pid.example' }),
      createTestSigner({ rootName: 'PID CA 3', signerName: 'PID Provider 3' }),
    ]);
  });

  it('accepts an iss equal to a SAN uniformResourceIdentifier of the leaf, and nothing but that exact string', async () => {
    expect(await issuedAs(byUri, 'https://pid.example/issuer')).toBe('accepted');
    expect(await issuedAs(byUri, 'https://pid.example/issuer/')).toMatch(/^issuer_mismatch: .*not named by its x5c leaf/);
    expect(await issuedAs(byUri, 'https://pid.example/other')).toMatch(/^issuer_mismatch: /);
  });

  it('accepts an https iss whose host is a SAN dNSName of the leaf (any path or port, the host in any case)', async () => {
    expect(await issuedAs(byDns, 'https://pid.example')).toBe('accepted');
    expect(await issuedAs(byDns, 'https://PID.example:8443/pid/v1')).toBe('accepted');
  });

  it('refuses another host, a subdomain, and an iss that is not https for a dNSName', async () => {
    expect(await issuedAs(byDns, 'https://mallory.example')).toMatch(/^issuer_mismatch: /);
    expect(await issuedAs(byDns, 'https://eu.pid.example')).toMatch(/^issuer_mismatch: /);
    expect(await issuedAs(byDns, 'http://pid.example')).toMatch(/^issuer_mismatch: /);
    expect(await issuedAs(byDns, 'pid.example')).toMatch(/^issuer_mismatch: /);
  });

  it('refuses any iss when the leaf names none, and accepts a credential without iss (the Issuer is the leaf subject)', async () => {
    expect(await issuedAs(unnamed, 'https://pid-provider.test.invalid')).toMatch(/^issuer_mismatch: /);
    expect(await issuedAs(unnamed, 42)).toMatch(/^issuer_mismatch: .*not a string/);
    expect(await issuedAs(unnamed, undefined)).toBe('accepted');
  });

  it("the specimen issuer's default iss is the one its certificate names", async () => {
    const credential = await issueSdJwtVc({ signer: byUri, holderKey: holder.publicKey });
    const result = await verify(await present(credential, { paths: ['$.given_name'], holderKey: holder.privateKey }), byUri);
    expect(result.claims.iss).toBe('https://pid.example/issuer');
    expect(result.signer).toMatchObject({ format: 'sd-jwt', iss: 'https://pid.example/issuer' });
  });

  it('reads a changed iss under the old signature as a forgery, not as a mismatch', async () => {
    const credential = await issueSdJwtVc({ signer: byUri, holderKey: holder.publicKey });
    const forged = await present(credential, {
      paths: ['$.given_name'],
      holderKey: holder.privateKey,
      mutate: (jwt, ds) => [forge(jwt, { payload: (p) => (p.iss = 'https://mallory.example') }), ds],
    });
    expect(await outcome(() => verify(forged, byUri))).toMatch(/^invalid_signature: /);
  });
});
