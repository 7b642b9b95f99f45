/**
 * The engine's default hooks, which a configured hook replaces (it does not chain them): fapi-clock.ts runs them first
 * and adds its own rule. Typed here as far as that use needs; the module has no types of its own.
 */
declare module 'oidc-provider/lib/helpers/defaults.js' {
  import type { KoaContextWithOIDC } from 'oidc-provider';

  type JwtHook = (ctx: KoaContextWithOIDC, claims: Record<string, unknown>, header: Record<string, unknown>, client: unknown) => Promise<void>;
  export const defaults: {
    assertJwtClientAuthClaimsAndHeader: JwtHook;
    features: { requestObjects: { assertJwtClaimsAndHeader: JwtHook } };
  };
}
