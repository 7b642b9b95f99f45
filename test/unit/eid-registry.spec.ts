import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addLogSink } from '../../src/common/logging/logger.js';
import { loadServiceConfig, schemeModules } from '../../src/bootstrap/scheme-manifests.js';
import { TestEidModule } from '../../src/schemes/test-eid/test-eid.module.js';
import { EidRegistry } from '../../src/broker/schemes/eid-registry.js';
import { TestEidProvider } from '../../src/schemes/test-eid/test-eid.provider.js';

const config = (env: 'customer-test' | 'production') =>
  loadServiceConfig({
    APP_ENV: env,
    BASE_URL: 'https://broker.example',
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    COOKIE_KEYS: randomBytes(32).toString('hex'),
    SUBJECT_SECRET: randomBytes(32).toString('hex'),
    PAIRWISE_SECRET: randomBytes(32).toString('hex'),
    ALLOW_EMBEDDED_DATABASE: 'true',
    TRUST_CSCA_PATHS: '/etc/broker/csca',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'eid-')),
  });

describe('eID registry', () => {
  it('offers the test eID in customer-test', () => {
    const registry = new EidRegistry([new TestEidProvider(config('customer-test'))], config('customer-test'));
    expect(registry.ids()).toEqual(['test']);
  });

  it('cannot enable the test eID in production: its manifest leaves its module out, and the registry refuses it outright', async () => {
    expect(await schemeModules(config('customer-test'))).toContain(TestEidModule);
    expect(await schemeModules(config('production'))).not.toContain(TestEidModule);
    expect(() => new EidRegistry([new TestEidProvider(config('customer-test'))], config('production'))).toThrow(
      'test-only eID schemes cannot run in production: test',
    );
  });

  it('limits a merchant to its own schemes and honours a preselection by login_hint or acr_values', () => {
    const test = new TestEidProvider(config('customer-test'));
    const registry = new EidRegistry([test], config('customer-test'));
    expect(registry.forRequest(null)).toEqual([test]);
    expect(registry.forRequest(['document-verifier'])).toEqual([]);
    expect(registry.forRequest(null, ['urn:svc:acrp:level:high'])).toEqual([test]);
    expect(registry.forRequest(null, ['urn:example:unknown'])).toEqual([test]);
    const low = { ...test, id: 'low', testOnly: false, supportsAcr: () => false } as unknown as TestEidProvider;
    const mixed = new EidRegistry([test, low], config('customer-test'));
    expect(mixed.forRequest(null, ['urn:svc:acrp:level:high']).map((p) => p.id)).toEqual(['test']);
    expect(mixed.forRequest(null).map((p) => p.id)).toEqual(['test', 'low']);
    expect(registry.preselected([test], 'eid:test', [])).toBe(test);
    expect(registry.preselected([test], undefined, ['urn:svc:acrp:level:high', 'urn:svc:eid:test'])).toBe(test);
    expect(registry.preselected([test], 'someone@example', [])).toBeUndefined();
  });

  it('learns schemes that are data from registered sources: never shadowing a built-in one, never test-only in production', async () => {
    const test = new TestEidProvider(config('customer-test'));
    const upstream = (id: string, testOnly: boolean) => ({ ...test, id, testOnly }) as unknown as TestEidProvider;
    const source = { schemes: async () => [upstream('test', false), upstream('bank', false), upstream('bank-test', true)] };
    const registry = new EidRegistry([test], config('customer-test'));
    registry.addSource(source);
    expect(registry.ids()).toEqual(['test']);
    await registry.refresh();
    expect(registry.ids()).toEqual(['test', 'bank', 'bank-test']);
    expect(registry.get('test')).toBe(test);
    expect(registry.builtInIds()).toEqual(['test']);
    const production = new EidRegistry([], config('production'));
    production.addSource(source);
    const lines: string[] = [];
    const stop = addLogSink((line) => lines.push(line), { capture: true });
    try {
      await production.refresh();
    } finally {
      stop();
    }
    expect(production.ids()).toEqual(['test', 'bank']);
    // Leaving a scheme out is said once, for the operator, naming it.
    expect(lines.map((l) => JSON.parse(l) as { scheme: string; msg: string }).map((l) => [l.scheme, l.msg])).toEqual([
      ['bank-test', 'test-only eID scheme left out in production'],
    ]);
  });
});
