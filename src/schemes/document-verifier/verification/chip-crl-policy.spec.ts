import { readFileSync } from 'node:fs';
import { createSpecimenAuthority, issueSpecimenCrl, issueSpecimenDocument, type TrustStore } from '@identity-broker/icao9303';
import { addLogSink } from '../../../common/logging/logger.js';
import type { AppConfig } from '../../../config/load-config.js';
import { ChipVerificationService } from './chip-verification.service.js';
import type { TrustStoreProvider } from './trust-store.provider.js';

const hour = 3600_000;
const NOW = new Date();

/**
 * The chip step's CRL policy per environment (RFC 5280 §6.3.3 (a)(1)): production refuses a CRL past nextUpdate plus
 * TRUST_CRL_GRACE_HOURS, customer-test accepts it and says so in what the record keeps; within the grace both pass.
 */
describe('the chip step with an outdated CRL', () => {
  let authority: Awaited<ReturnType<typeof createSpecimenAuthority>>;
  let doc: Awaited<ReturnType<typeof issueSpecimenDocument>>;
  const logged: string[] = [];
  let stopLogs: () => void;
  beforeAll(async () => {
    stopLogs = addLogSink((line) => logged.push(line), { capture: true });
    authority = await createSpecimenAuthority({ notBefore: new Date(NOW.getTime() - 100 * 24 * hour) });
    doc = await issueSpecimenDocument(authority, {
      activeAuthentication: false,
      faceImage: new Uint8Array(readFileSync('test/fixtures/verifier-faces/sheldon-document.jpg')),
    });
  });
  afterAll(() => stopLogs());

  /** The chip step of `env` against a store whose one CRL's nextUpdate lies `due` ms from now (issueSpecimenCrl: at + 30 days). */
  const chipStep = async (env: 'production' | 'customer-test', due: number) => {
    const store = authority.trustStore();
    store.addCrl(await issueSpecimenCrl(authority, [], new Date(NOW.getTime() + due - 30 * 24 * hour)));
    const trust = { get: async (): Promise<TrustStore> => store, specimenCscaFingerprint: async () => undefined } as unknown as TrustStoreProvider;
    const config = { isProduction: env === 'production', schemes: { 'document-verifier': { trust: { crlGraceHours: 24 } } } } as unknown as AppConfig;
    return new ChipVerificationService(trust, config).verify({ sod: doc.sod, dataGroups: doc.dataGroups }, undefined, ['P', 'I'], NOW);
  };

  it('production: past nextUpdate plus the grace fails the chain, and the record says why', async () => {
    const chip = await chipStep('production', -25 * hour);
    expect(chip.explanations).toEqual(['STATUS_BAD_COUNTRYSIGNERCHAIN']);
    expect(chip.passiveAuthentication).toBe(false);
    expect(chip.crl).toEqual({ code: 'CRL_OUTDATED', nextUpdate: expect.any(String), refused: true });
    expect(chip.failures).toEqual([expect.stringMatching(/^CRL_OUTDATED: .* refused \(RFC 5280 §6\.3\.3 \(a\)\(1\); 9303-12 §7\.1\.4\)$/)]);
    expect(chip.warnings).toEqual([]);
    // Where the operator sees it too (BrokerCrlOutdated names the CRL; the log names each refusal).
    expect(logged.some((l) => l.includes('"event":"crl_outdated"') && l.includes('"refused":true'))).toBe(true);
  });

  it('customer-test: the same CRL passes, with a warning in what the record keeps', async () => {
    const chip = await chipStep('customer-test', -25 * hour);
    expect(chip.explanations).toEqual([]);
    expect(chip.passiveAuthentication).toBe(true);
    expect(chip.crl).toMatchObject({ code: 'CRL_OUTDATED', refused: false });
    expect(chip.warnings).toEqual([expect.stringContaining('CRL_OUTDATED: ')]);
  });

  it('production: within the grace it passes, noted; a current CRL passes unremarked', async () => {
    const late = await chipStep('production', -23 * hour);
    expect([late.explanations, late.crl.code, late.crl.refused]).toEqual([[], 'CRL_OUTDATED_IN_GRACE', false]);
    expect(late.warnings).toEqual([expect.stringContaining('within the grace of 24 h')]);
    const current = await chipStep('production', 24 * hour);
    expect([current.explanations, current.crl.code, current.warnings]).toEqual([[], 'CRL_CURRENT', []]);
  });
});
