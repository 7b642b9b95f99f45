import { StatusListChecker, type StatusListCheckerOptions } from '../../libs/eu-wallet/src/status-list/status-list-checker.js';
import { createStatusList, type CreateStatusListOptions } from '../../libs/eu-wallet/src/specimen/issue-status-list.js';
import { createTestSigner, type TestSigner } from '../../libs/eu-wallet/src/specimen/test-pki.js';
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

  const token = (options: Partial<CreateStatusListOptions> = {}) => createStatusList({ signer: pid, uri: URI, bits: 2, values: VALUES, issuedAt: clock, ...options });
  const checker = (serve: (uri: string) => Promise<string> | string, options: Partial<StatusListCheckerOptions> = {}) =>
    new StatusListChecker({
      fetchStatusList: async (uri) => {
        fetches.push(uri);
        return serve(uri);
      },
      trustAnchors: [pid.root],
      now: () => clock,
      ...options,
    });
  const advance = (seconds: number) => (clock = new Date(clock.getTime() + seconds * 1000));

  beforeAll(async () => {
    [pid, other] = await Promise.all([
      createTestSigner({ rootName: 'Test PID Provider CA', signerName: 'Test PID Provider' }),
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
    expect(await outcome(() => checker(() => token()).check({ uri: URI, idx: 3 }))).toBe('revoked: status could not be established: status value 3 is not one this verifier knows');
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
    expect(await outcome(() => checker(() => token({ signer: other })).check({ uri: URI, idx: 0 }))).toMatch(/^revoked: status could not be established: .*no trusted anchor/);
    const forged = () => {
      const [h, p] = token().split('.');
      const [, , s] = token({ values: [1, 1, 1, 1] }).split('.');
      return `${h}.${p}.${s}`;
    };
    expect(await outcome(() => checker(forged).check({ uri: URI, idx: 0 }))).toMatch(/^revoked: status could not be established: .*not signed by its x5c/);
  });

  it('fails closed on a list for another uri (sub mismatch)', async () => {
    expect(await outcome(() => checker(() => token({ uri: 'https://pid-provider.test.invalid/status/2' })).check({ uri: URI, idx: 0 }))).toMatch(/^revoked: status could not be established: .*sub is not the uri/);
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
    expect(await Promise.all(checks)).toEqual(['accepted', 'revoked: the credential is revoked (status INVALID)', 'accepted', 'accepted', 'revoked: the credential is suspended (status SUSPENDED)']);
    expect(fetches).toEqual([URI]);
  });
});
