import { addLogSink } from '../../common/logging/logger.js';
import type { AppConfig } from '../../config/load-config.js';
import { ACR_REQUEST_HIGH } from '../spi/acr.js';
import type { EidProvider, EidSchemeSource } from '../spi/eid-provider.js';
import { EidRegistry } from './eid-registry.js';

/**
 * The scheme registry alone: schemes are stubs (an id, test-only or not, the levels they reach) and the configuration
 * says only whether this is production, so each test reads as the rule it checks. That the test eID's module is left
 * out of production altogether is the manifests' part (src/bootstrap/scheme-manifests.spec.ts).
 */
const customerTest = { isProduction: false } as AppConfig;
const production = { isProduction: true } as AppConfig;

/** A scheme as the registry sees it; `reaches` makes it answer supportsAcr (the test eID reaches the high level). */
function scheme(id: string, testOnly = false, reaches?: string[]): EidProvider {
  const provider: EidProvider = { id, testOnly, displayName: () => id, start: async () => ({ kind: 'failed', reason: 'stub' }) } as unknown as EidProvider;
  return reaches ? Object.assign(provider, { supportsAcr: (acr: string) => reaches.includes(acr) }) : provider;
}
const testEid = () => scheme('test', true, [ACR_REQUEST_HIGH]);

describe('eID registry', () => {
  it('offers the test eID in customer-test', () => {
    const registry = new EidRegistry([testEid()], customerTest);
    expect(registry.ids()).toEqual(['test']);
  });

  it('refuses a test-only scheme in production outright, naming it', () => {
    expect(() => new EidRegistry([testEid()], production)).toThrow('test-only eID schemes cannot run in production: test');
    expect(() => new EidRegistry([scheme('bank')], production)).not.toThrow();
    const registry = new EidRegistry([], production);
    expect(() => registry.addBuiltIn([scheme('bank'), scheme('other-test', true)])).toThrow('test-only eID schemes cannot run in production: other-test');
    expect(registry.ids()).toEqual([]);
  });

  it('limits a merchant to its own schemes and honours a preselection by login_hint or acr_values', () => {
    const test = testEid();
    const registry = new EidRegistry([test], customerTest);
    expect(registry.forRequest(null)).toEqual([test]);
    expect(registry.forRequest(['document-verifier'])).toEqual([]);
    expect(registry.forRequest(null, [ACR_REQUEST_HIGH])).toEqual([test]);
    expect(registry.forRequest(null, ['urn:example:unknown'])).toEqual([test]);
    const low = scheme('low', false, []);
    const mixed = new EidRegistry([test, low], customerTest);
    expect(mixed.forRequest(null, [ACR_REQUEST_HIGH]).map((p) => p.id)).toEqual(['test']);
    expect(mixed.forRequest(null).map((p) => p.id)).toEqual(['test', 'low']);
    // A scheme that does not say which levels it reaches is not left out by a requested level.
    expect(new EidRegistry([scheme('silent')], customerTest).forRequest(null, [ACR_REQUEST_HIGH]).map((p) => p.id)).toEqual(['silent']);
    expect(registry.preselected([test], 'eid:test', [])).toBe(test);
    expect(registry.preselected([test], undefined, [ACR_REQUEST_HIGH, 'urn:svc:eid:test'])).toBe(test);
    expect(registry.preselected([test], 'someone@example', [])).toBeUndefined();
    expect(registry.preselected([test], 'eid:bank', ['urn:svc:eid:bank'])).toBeUndefined();
  });

  it('learns schemes that are data from registered sources: never shadowing a built-in one, never test-only in production', async () => {
    const test = testEid();
    const source: EidSchemeSource = { schemes: async () => [scheme('test'), scheme('bank'), scheme('bank-test', true)] };
    const registry = new EidRegistry([test], customerTest);
    registry.addSource(source);
    expect(registry.ids()).toEqual(['test']);
    await registry.refresh();
    expect(registry.ids()).toEqual(['test', 'bank', 'bank-test']);
    expect(registry.get('test')).toBe(test);
    expect(registry.builtInIds()).toEqual(['test']);
    const inProduction = new EidRegistry([], production);
    inProduction.addSource(source);
    const lines: string[] = [];
    const stop = addLogSink((line) => lines.push(line), { capture: true });
    try {
      await inProduction.refresh();
    } finally {
      stop();
    }
    expect(inProduction.ids()).toEqual(['test', 'bank']);
    // Leaving a scheme out is said once, for the operator, naming it.
    expect(lines.map((l) => JSON.parse(l) as { scheme: string; msg: string }).map((l) => [l.scheme, l.msg])).toEqual([
      ['bank-test', 'test-only eID scheme left out in production'],
    ]);
  });

  it('asks the sources again at each refresh: a scheme removed from its source is gone, the first of two with one id wins', async () => {
    let offered = [scheme('bank'), scheme('bank')];
    const first = offered[0];
    const registry = new EidRegistry([], customerTest);
    registry.addSource({ schemes: async () => offered });
    await registry.refresh();
    expect(registry.get('bank')).toBe(first);
    offered = [];
    await registry.refresh();
    expect(registry.ids()).toEqual([]);
    expect(registry.get('bank')).toBeUndefined();
  });
});
