import type { SchemeManifest } from '../../broker/spi/scheme-manifest.js';
import { EidSchemes1700000000200 } from './migrations/1700000000200-eid-schemes.js';
import { UpstreamClientKeys1700000000201 } from './migrations/1700000000201-upstream-client-keys.js';
import { UpstreamIdTokenEncryption1700000000202 } from './migrations/1700000000202-upstream-id-token-encryption.js';

/**
 * Upstream OpenID Connect schemes, configured through the admin API (docs/upstream-oidc.md). Its first migration
 * also made the broker's table of pending redirects (`eid_pending_redirects`), which came with these schemes; it
 * stays here unchanged, as every listed scheme's migrations run whether the scheme is enabled or not.
 */
export const manifest: SchemeManifest = {
  name: 'upstream-oidc',
  order: 30,
  module: () => import('./upstream-oidc.module.js').then((m) => m.UpstreamOidcModule),
  migrations: [EidSchemes1700000000200, UpstreamClientKeys1700000000201, UpstreamIdTokenEncryption1700000000202],
};
