import { maxAgeOf } from './interaction-context.js';

// Split from the brokered auth_time's spec (now src/schemes/upstream-oidc/upstream-auth-time.spec.ts): max_age is read
// by the OIDC front door's interaction context, so its spec goes beside src/oidc/interaction/interaction-context.ts.
describe('the interaction context', () => {
  it('reads max_age as the engine hands it over, and nothing else', () => {
    expect(maxAgeOf(600)).toBe(600);
    expect(maxAgeOf('600')).toBe(600);
    expect(maxAgeOf(0)).toBe(0);
    for (const bad of [undefined, '', '-1', '1e3', '6OO', -5, 1.5, '99999999999']) expect(maxAgeOf(bad)).toBeUndefined();
  });
});
