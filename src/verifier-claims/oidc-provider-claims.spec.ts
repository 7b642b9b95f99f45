import { jest } from '@jest/globals';
import Provider from 'oidc-provider';
import { claimsByScope } from './claim-table.js';

// The table is meant to be handed to oidc-provider as its `claims` configuration; check that the
// provider accepts it and advertises every scope and claim from it.
describe('claimsByScope as oidc-provider configuration', () => {
  it('is accepted and shows up in scopes_supported / claims_supported', async () => {
    const claims = claimsByScope({ ageVerifyScopes: ['ageverify18'] });
    // The provider warns about its development defaults (keys, interactions); irrelevant here.
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const provider = new Provider('http://localhost:3000', { claims, features: { devInteractions: { enabled: false } } });
    const discovery = await fetchDiscovery(provider);
    expect(discovery.scopes_supported).toEqual(expect.arrayContaining(['openid', 'profile', 'ssn', 'email', 'phone', 'address', 'ageverify18']));
    expect(discovery.claims_supported).toEqual(expect.arrayContaining(Object.values(claims).flat()));
  });

  afterEach(() => jest.restoreAllMocks());
});

async function fetchDiscovery(provider: Provider): Promise<{ scopes_supported: string[]; claims_supported: string[] }> {
  const { createServer } = await import('node:http');
  const server = createServer(provider.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as { port: number };
    const res = await fetch(`http://127.0.0.1:${port}/.well-known/openid-configuration`);
    return (await res.json()) as { scopes_supported: string[]; claims_supported: string[] };
  } finally {
    server.close();
  }
}
