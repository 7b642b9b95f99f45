import type { KoaContextWithOIDC } from 'oidc-provider';
import { extraParams, LOGIN_OWNER_PARAM, pkceRequired } from './extra-params.js';

/** The engine's rules for a login another front door started: PKCE and the owner parameter, with the core's check stubbed. */
const isOwned = (sealed: unknown, clientId: string) => sealed === 'sealed-for-shop' && clientId === 'shop';
const ctx = (params: Record<string, unknown>, clientId = 'shop') =>
  ({ oidc: { params, client: { clientId }, route: 'authorization' } }) as unknown as KoaContextWithOIDC;

describe('the engine parameters of a front door login', () => {
  it("relaxes a PSD2 merchant's PKCE only for a login the core sealed for that merchant", () => {
    const required = pkceRequired(isOwned);
    expect(required(ctx({}), { clientId: 'shop', psd2: true })).toBe(true);
    expect(required(ctx({ [LOGIN_OWNER_PARAM]: 'sealed-for-shop' }), { clientId: 'shop', psd2: true })).toBe(false);
    expect(required(ctx({ [LOGIN_OWNER_PARAM]: 'forged' }), { clientId: 'shop', psd2: true })).toBe(true);
    expect(required(ctx({ [LOGIN_OWNER_PARAM]: 'sealed-for-shop' }), { clientId: 'other', psd2: true })).toBe(true);
    expect(required(ctx({}), { clientId: 'shop', psd2: false })).toBe(false);
  });

  it('requires PKCE of a fapi2 merchant as of a PSD2 one (FAPI 2.0 SP 5.3.2.2), except for a login the core sealed for it', () => {
    const required = pkceRequired(isOwned);
    const bank = { clientId: 'shop', psd2: false, metadata: () => ({ security_profile: 'fapi2' }) };
    expect(required(ctx({}), bank)).toBe(true);
    expect(required(ctx({ [LOGIN_OWNER_PARAM]: 'sealed-for-shop' }), bank)).toBe(false);
    expect(required(ctx({}), { ...bank, metadata: () => ({ security_profile: 'default' }) })).toBe(false);
  });

  it('refuses an owner parameter the core did not seal for this merchant, and lets the absent one pass', () => {
    const validate = extraParams(isOwned)[LOGIN_OWNER_PARAM];
    expect(() => validate(ctx({}), undefined)).not.toThrow();
    expect(() => validate(ctx({}), 'sealed-for-shop')).not.toThrow();
    expect(() => validate(ctx({}), 'forged')).toThrow(expect.objectContaining({ error: 'invalid_request' }));
    expect(() => validate(ctx({}, 'other'), 'sealed-for-shop')).toThrow(expect.objectContaining({ error: 'invalid_request' }));
  });
});
