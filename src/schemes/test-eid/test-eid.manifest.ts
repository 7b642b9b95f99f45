import type { SchemeManifest } from '../../broker/spi/scheme-manifest.js';

/** The test eID: customer-test only (left out of production here, and the registry refuses it there). */
export const manifest: SchemeManifest = {
  name: 'test-eid',
  order: 20,
  enabled: (config) => !config.isProduction,
  module: () => import('./test-eid.module.js').then((m) => m.TestEidModule),
};
