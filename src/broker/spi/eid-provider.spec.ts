import { type EidProvider, resumesRedirect, supportsAcr } from './eid-provider.js';

/** A scheme with only what every scheme has, plus what the test gives it. */
const scheme = (extra: Record<string, unknown> = {}) =>
  ({ id: 'x', testOnly: false, displayName: () => 'X', start: async () => ({ kind: 'failed', reason: 'stub' }), ...extra }) as unknown as EidProvider;

describe("the scheme interface's opt-in capabilities", () => {
  it('a scheme supports acr checks when it has a supportsAcr method, whatever it answers', () => {
    expect(supportsAcr(scheme({ supportsAcr: () => false }))).toBe(true);
    expect(supportsAcr(scheme())).toBe(false);
    // A property of that name that is no method is not the capability.
    expect(supportsAcr(scheme({ supportsAcr: true }))).toBe(false);
  });

  it('a scheme resumes a redirect when it has a resume method', () => {
    expect(resumesRedirect(scheme({ resume: async () => ({ kind: 'failed', reason: 'stub' }) }))).toBe(true);
    expect(resumesRedirect(scheme())).toBe(false);
    expect(resumesRedirect(scheme({ resume: 'later' }))).toBe(false);
  });
});
