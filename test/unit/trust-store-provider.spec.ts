import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { AppConfig } from '../../src/config/load-config.js';
import type { SpecimenAuthorityService } from '../../src/verifier/specimen/specimen-authority.service.js';
import { TrustStoreProvider } from '../../src/verifier/verification/trust-store.provider.js';

/** A trust store that could not be built is not kept: once the file is there, the next use builds it. */
describe('the verifier trust store provider', () => {
  const CSCA = resolve('test/fixtures/icao/masterlists/CSCA_NL_serial6_2021.cer');

  it('tries again after a failed build, and keeps the store once built', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'trust-')), 'csca.cer');
    const config = { isProduction: true, verifier: { trust: { cscaPaths: [path], masterLists: [], masterListAnchors: [], crls: [] } } } as unknown as AppConfig;
    const provider = new TrustStoreProvider(config, {} as SpecimenAuthorityService);
    await expect(provider.get()).rejects.toThrow();
    copyFileSync(CSCA, path);
    const store = await provider.get();
    expect(store.certificates()).toHaveLength(1);
    expect(await provider.get()).toBe(store);
  });
});
