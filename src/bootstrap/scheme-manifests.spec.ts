import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestEidModule } from '../schemes/test-eid/test-eid.module.js';
import { loadServiceConfig, schemeModules } from './scheme-manifests.js';

/** The configuration of a start in `env`, read as the start reads it (every scheme's section included). */
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

/** The schemes' manifests as the start reads them; the registry's own refusal is in src/broker/schemes/eid-registry.spec.ts. */
describe('scheme manifests', () => {
  it('cannot enable the test eID in production: its manifest leaves its module out', async () => {
    expect(await schemeModules(config('customer-test'))).toContain(TestEidModule);
    expect(await schemeModules(config('production'))).not.toContain(TestEidModule);
  });
});
