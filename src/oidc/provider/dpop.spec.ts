import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../config/load-config.js';
import { configProblems } from '../../../test/support/config-problems.js';
import { dpopFeature } from './dpop.js';

const dataDir = () => mkdtempSync(join(tmpdir(), 'dpop-cfg-'));

describe('DPoP server nonces (RFC 9449 §8) from DPOP_NONCE_SECRET', () => {
  it('are off without the variable: proofs are judged by their iat alone', () => {
    expect(dpopFeature(undefined)).toEqual({ enabled: true });
    expect(loadConfig({ DATA_DIR: dataDir() }).oidc.dpopNonceSecret).toBeUndefined();
  });

  it('are required of every proof with it, under a 32-byte key derived from any secret of 32 characters or more', () => {
    const secret = 'n'.repeat(40);
    expect(loadConfig({ DATA_DIR: dataDir(), DPOP_NONCE_SECRET: secret }).oidc.dpopNonceSecret).toBe(secret);
    const feature = dpopFeature(secret) as { enabled: boolean; nonceSecret: Buffer; requireNonce: () => boolean };
    expect(feature.enabled).toBe(true);
    expect(feature.nonceSecret).toHaveLength(32);
    expect(feature.requireNonce()).toBe(true);
    // Every instance derives the same key from the same secret (their nonces are each other's).
    expect((dpopFeature(secret) as { nonceSecret: Buffer }).nonceSecret.equals(feature.nonceSecret)).toBe(true);
  });

  it('refuses a short secret at start-up, naming the variable', () => {
    const problems = configProblems(() => loadConfig({ DATA_DIR: dataDir(), DPOP_NONCE_SECRET: 'short' }));
    expect(problems).toEqual([expect.stringMatching(/^DPOP_NONCE_SECRET: must be a secret of at least 32 characters/)]);
  });
});
