import { X509Certificate } from 'node:crypto';
import {
  StatusListChecker,
  type StatusListCheckerOptions,
  type PresentationSigner as CredentialSigner,
  createStatusList,
  type CreateStatusListOptions,
  createTestRoot,
  createTestSigner,
  type TestSigner,
} from '@identity-broker/eu-wallet';
import { outcome } from './sd-jwt-holder.js';

const URI = 'https://pid-provider.test.invalid/status/1';
/** idx 0 VALID, 1 INVALID, 2 SUSPENDED, 3 application-specific (0x03), 4.. VALID. */
const VALUES = [0, 1, 2, 3, 0, 0, 0, 0];

/** Token Status List draft: the Status List Token, its status types, caching, and failing closed. */
describe('Token Status List checks', () => {
  let pid: TestSigner;
  let other: TestSigner;
  let clock: Date;
  let fetches: string[];

  const token = (options: Partial<CreateStatusListOptions> = {}) =>
    createStatusList({ signer: pid, uri: URI, bits: 2, values: VALUES, issuedAt: clock, ...options });
  /** Who signed the credential whose status is looked up: by default the PID provider's signer, as its verifier reports it. */
  const signedBy = (signer: TestSigner, extra: Partial<CredentialSigner> = {}): CredentialSigner => ({
    leaf: new X509Certificate(signer.chain[0]),
    anchor: new X509Certificate(signer.root),
    format: 'sd-jwt',
    ...extra,
  });
  const checker = (serve: (uri: string) => Promise<string> | string, options: Partial<StatusListCheckerOptions> = {}) => {
    const c = new StatusListChecker({
      fetchStatusList: async (uri) => {
        fetches.push(uri);
        return serve(uri);
      },
      trustAnchors: [pid.root],
      now: () => clock,
      ...options,
    });
    return { check: (ref: { uri: string; idx: number }, signer = signedBy(pid)) => c.check(ref, signer) };
  };
  const advance = (seconds: number) => (clock = new Date(clock.getTime() + seconds * 1000));

  /** Under pid's root: the same subject with another key (a rotation), and another subject (another issuer). */
  let rotated: TestSigner;
  let sibling: TestSigner;

  beforeAll(async () => {
    const day = 86_400_000;
    const root = await createTestRoot({
      commonName: 'Test PID Provider CA',
      notBefore: new Date(Date.now() - day),
      notAfter: new Date(Date.now() + 365 * day),
    });
    const under = (signerName: string) => createTestSigner({ root, rootName: 'Test PID Provider CA', signerName });
    [pid, rotated, sibling, other] = await Promise.all([
      under('Test PID Provider'),
      under('Test PID Provider'),
      under('Another PID Provider'),
      createTestSigner({ rootName: 'Other CA', signerName: 'Other signer' }),
    ]);
  });
  beforeEach(() => {
    clock = new Date();
    fetches = [];
  });

  it('passes a VALID entry', async () => {
    await expect(checker(() => token()).check({ uri: URI, idx: 0 })).resolves.toBeUndefined();
    await expect(checker(() => token({ bits: 1, values: [0, 1, 0] })).check({ uri: URI, idx: 2 })).resolves.toBeUndefined();
  });

  it('refuses INVALID as revoked and SUSPENDED as revoked (suspended)', async () => {
    const c = checker(() => token());
    expect(await outcome(() => c.check({ uri: URI, idx: 1 }))).toBe('revoked: the credential is revoked (status INVALID)');
    expect(await outcome(() => c.check({ uri: URI, idx: 2 }))).toBe('revoked: the credential is suspended (status SUSPENDED)');
  });

  it('fails closed on a status value it does not know', async () => {
    expect(await outcome(() => checker(() => token()).check({ uri: URI, idx: 3 }))).toBe(
      'revoked: status could not be established: status value 3 is not one this verifier knows',
    );
  });

  it('fails closed when the list is unreachable, and does not cache the failure', async () => {
    let up = false;
    const c = checker(() => (up ? token() : Promise.reject(new Error('ECONNREFUSED'))));
    expect(await outcome(() => c.check({ uri: URI, idx: 0 }))).toBe('revoked: status could not be established: the status list could not be fetched');
    up = true;
    expect(await outcome(() => c.check({ uri: URI, idx: 0 }))).toBe('accepted');
    expect(fetches).toHaveLength(2);
  });

  it('fails closed on a list signed by an untrusted key, or not signed by its x5c leaf', async () => {
    expect(await outcome(() => checker(() => token({ signer: other })).check({ uri: URI, idx: 0 }))).toMatch(
      /^revoked: status could not be established: .*no trusted anchor/,
    );
    const forged = () => {
      const [h, p] = token().split('.');
      const [, , s] = token({ values: [1, 1, 1, 1] }).split('.');
      return `${h}.${p}.${s}`;
    };
    expect(await outcome(() => checker(forged).check({ uri: URI, idx: 0 }))).toMatch(/^revoked: status could not be established: .*not signed by its x5c/);
  });

  it('fails closed on a list for another uri (sub mismatch)', async () => {
    expect(await outcome(() => checker(() => token({ uri: 'https://pid-provider.test.invalid/status/2' })).check({ uri: URI, idx: 0 }))).toMatch(
      /^revoked: status could not be established: .*sub is not the uri/,
    );
  });

  it('fails closed on an idx outside the list', async () => {
    const c = checker(() => token());
    expect(await outcome(() => c.check({ uri: URI, idx: 8 }))).toBe('revoked: status could not be established: idx is outside the status list');
    expect(await outcome(() => c.check({ uri: URI, idx: 1.5 }))).toBe('revoked: status could not be established: idx is outside the status list');
  });

  it('fails closed on an expired list, a list of another typ, and garbage', async () => {
    const expired = token({ issuedAt: new Date(clock.getTime() - 7200_000), expiresAt: new Date(clock.getTime() - 3600_000) });
    expect(await outcome(() => checker(() => expired).check({ uri: URI, idx: 0 }))).toMatch(/^revoked: status could not be established: .*expired/);
    expect(await outcome(() => checker(() => token({ header: { typ: 'JWT' } })).check({ uri: URI, idx: 0 }))).toMatch(/^revoked: .*typ is not statuslist\+jwt/);
    for (const garbage of ['', 'a.b.c', 'x'.repeat(2_000_000), 42 as never]) {
      expect(await outcome(() => checker(() => garbage).check({ uri: URI, idx: 0 }))).toMatch(/^revoked: status could not be established: /);
    }
  });

  it('caches a list for its ttl, on an injected clock', async () => {
    const c = checker(() => token({ ttl: 120 }));
    await c.check({ uri: URI, idx: 0 });
    advance(119);
    await c.check({ uri: URI, idx: 0 });
    expect(fetches).toHaveLength(1);
    advance(2);
    await c.check({ uri: URI, idx: 0 });
    expect(fetches).toHaveLength(2);
  });

  it('bounds the cache time by maxCacheSeconds and by the list exp', async () => {
    const capped = checker(() => token({ ttl: 3600 }), { maxCacheSeconds: 60 });
    await capped.check({ uri: URI, idx: 0 });
    advance(61);
    await capped.check({ uri: URI, idx: 0 });
    expect(fetches).toHaveLength(2);
    fetches = [];
    const shortLived = checker(() => token({ ttl: 3600, expiresAt: new Date(clock.getTime() + 30_000) }), { maxCacheSeconds: 3600 });
    await shortLived.check({ uri: URI, idx: 0 });
    advance(29);
    await shortLived.check({ uri: URI, idx: 0 });
    expect(fetches).toHaveLength(1);
    advance(2);
    await shortLived.check({ uri: URI, idx: 0 });
    expect(fetches).toHaveLength(2);
  });

  it('shares one fetch among concurrent checks of one uri', async () => {
    let release!: (jwt: string) => void;
    const c = checker(() => new Promise<string>((resolve) => (release = resolve)));
    const checks = [0, 1, 4, 5, 2].map((idx) => outcome(() => c.check({ uri: URI, idx })));
    await Promise.resolve();
    release(token());
    expect(await Promise.all(checks)).toEqual([
      'accepted',
      'revoked: the credential is revoked (status INVALID)',
      'accepted',
      'accepted',
      'revoked: the credential is suspended (status SUSPENDED)',
    ]);
    expect(fetches).toEqual([URI]);
  });
  describe("the list's signer is the credential's issuer (Token Status List -14 §11.3; -02 §5.1 for iss)", () => {
    it('accepts a list signed by the credential signer, or by another key of the same subject under the same anchor', async () => {
      expect(await outcome(() => checker(() => token()).check({ uri: URI, idx: 0 }))).toBe('accepted');
      expect(await outcome(() => checker(() => token({ signer: rotated })).check({ uri: URI, idx: 0 }))).toBe('accepted');
    });

    it('refuses a list signed by another trusted issuer, or by another subject under the same anchor', async () => {
      const trustsBoth = { trustAnchors: [pid.root, other.root] };
      expect(await outcome(() => checker(() => token({ signer: other }), trustsBoth).check({ uri: URI, idx: 0 }))).toMatch(
        /^status_signer_mismatch: .*not signed by the credential's issuer/,
      );
      expect(await outcome(() => checker(() => token({ signer: sibling })).check({ uri: URI, idx: 0 }))).toMatch(/^status_signer_mismatch: /);
      // The other way round: a credential of the other issuer pointing at the PID provider's own list.
      expect(await outcome(() => checker(() => token(), trustsBoth).check({ uri: URI, idx: 0 }, signedBy(other)))).toMatch(/^status_signer_mismatch: /);
    });

    it("refuses a list whose iss is not the credential's; a list without iss passes on its key alone", async () => {
      const iss = 'https://pid-provider.test.invalid';
      const c = (tokenIss?: string) => checker(() => token({ iss: tokenIss }));
      expect(await outcome(() => c(iss).check({ uri: URI, idx: 0 }, signedBy(pid, { iss })))).toBe('accepted');
      expect(await outcome(() => c(undefined).check({ uri: URI, idx: 0 }, signedBy(pid, { iss })))).toBe('accepted');
      expect(await outcome(() => c('https://mallory.invalid').check({ uri: URI, idx: 0 }, signedBy(pid, { iss })))).toMatch(/^status_signer_mismatch: .*iss/);
      expect(await outcome(() => c(iss).check({ uri: URI, idx: 0 }, signedBy(pid)))).toMatch(/^status_signer_mismatch: .*iss/);
      // An mdoc has no iss to compare: the key rule alone applies.
      expect(await outcome(() => c(iss).check({ uri: URI, idx: 0 }, signedBy(pid, { format: 'mdoc' })))).toBe('accepted');
    });

    it('holds one cached list against every credential that points at it', async () => {
      const c = checker(() => token(), { trustAnchors: [pid.root, other.root] });
      expect(await outcome(() => c.check({ uri: URI, idx: 0 }))).toBe('accepted');
      expect(await outcome(() => c.check({ uri: URI, idx: 0 }, signedBy(other)))).toMatch(/^status_signer_mismatch: /);
      expect(fetches).toHaveLength(1);
    });
  });
});
