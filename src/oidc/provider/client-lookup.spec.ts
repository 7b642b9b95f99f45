import { jest } from '@jest/globals';
import { Provider, type AdapterPayload } from 'oidc-provider';
import type { MerchantsService } from '../../merchants/merchants.service.js';
import type { Jwk, MerchantJwksSource } from '../../merchants/merchant-jwks.js';
import type { MerchantEntity } from '../../merchants/merchant.entity.js';
import { memoizeClientLookup } from './client-lookup.js';
import { MerchantClientAdapter } from './merchant-client.js';

/** How often the engine serialised a merchant's metadata (to hash it and find its cached client). */
let serialised = 0;

const metadataOf = (name: string): AdapterPayload => {
  const metadata = {
    client_id: 'm_bank',
    client_secret: 'a-secret-of-the-bank-long-enough-0123456789',
    client_name: name,
    redirect_uris: ['https://bank.example/cb'],
  };
  // Not enumerable: the engine's schema never sees it; JSON.stringify calls it.
  Object.defineProperty(metadata, 'toJSON', { value: () => (serialised++, { ...metadata }) });
  return metadata;
};

/** The bare engine whose Client adapter hands out `state.metadata` (replaced to model an admin change). */
function engineWith(metadata: AdapterPayload | undefined) {
  const state = { metadata, reads: 0, next: undefined as AdapterPayload | undefined };
  const adapter = {
    find: async (id: string): Promise<AdapterPayload | undefined> => {
      state.reads++;
      const answer = id === 'm_bank' ? state.metadata : undefined;
      // A change landing between two reads of one lookup.
      if (state.next) [state.metadata, state.next] = [state.next, undefined];
      return answer;
    },
  };
  // The engine warns about its development signing keys; irrelevant to finding clients.
  jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  const provider = new Provider('https://broker.example', {
    adapter: (name: string) => (name === 'Client' ? adapter : undefined) as never,
    features: { devInteractions: { enabled: false } },
  });
  memoizeClientLookup(provider, adapter);
  return { provider, state };
}

describe('the engine finding a merchant client (memoizeClientLookup)', () => {
  afterEach(() => jest.restoreAllMocks());

  it('builds the client once per version of a merchant, and answers later lookups with it', async () => {
    const { provider, state } = engineWith(metadataOf('Example Bank'));
    const first = await provider.Client.find('m_bank');
    expect(first?.clientName).toBe('Example Bank');
    const [readsForFirst, serialisedForFirst] = [state.reads, serialised];
    const again = await provider.Client.find('m_bank');
    expect(again).toBe(first);
    // One read of the metadata, and no pass through the engine's own lookup (which reads, serialises and hashes it).
    expect(state.reads - readsForFirst).toBe(1);
    expect(serialised - serialisedForFirst).toBe(0);
  });

  it('sees a merchant changed through the admin API on the next lookup', async () => {
    const { provider, state } = engineWith(metadataOf('Example Bank'));
    const before = await provider.Client.find('m_bank');
    state.metadata = metadataOf('Example Bank (renamed)');
    const after = await provider.Client.find('m_bank');
    expect(after).not.toBe(before);
    expect(after?.clientName).toBe('Example Bank (renamed)');
  });

  it('knows no client for a disabled merchant (not found by the adapter), nor for an empty id', async () => {
    const { provider, state } = engineWith(metadataOf('Example Bank'));
    expect(await provider.Client.find('m_bank')).toBeDefined();
    state.metadata = undefined;
    expect(await provider.Client.find('m_bank')).toBeUndefined();
    expect(await provider.Client.find('')).toBeUndefined();
    expect(await provider.Client.find('m_other')).toBeUndefined();
  });

  it('keeps no client for metadata that changed during the lookup', async () => {
    const old = metadataOf('Old name');
    const { provider, state } = engineWith(old);
    state.next = metadataOf('New name');
    // Our read sees the old metadata, the engine's the new: the client answered is the engine's, built from the new.
    expect((await provider.Client.find('m_bank'))?.clientName).toBe('New name');
    // Were it kept under the old metadata, this lookup of the old metadata would answer with the new name.
    state.metadata = old;
    expect((await provider.Client.find('m_bank'))?.clientName).toBe('Old name');
  });
});

describe('MerchantClientAdapter', () => {
  const row = (name: string) =>
    Object.freeze({
      ...metadataOf(name),
      clientId: 'm_bank',
      name,
      redirectUris: ['https://bank.example/cb'],
      clientSecret: 's',
    }) as unknown as MerchantEntity & {
      clientSecret: string;
    };
  function adapterWith(merchant: ReturnType<typeof row>, keys: Jwk[] | undefined) {
    const state = { merchant, keys };
    const merchants = { findEnabled: async () => state.merchant } as unknown as MerchantsService;
    const merchantKeys = { keysOf: async () => state.keys } as unknown as MerchantJwksSource;
    return { adapter: new MerchantClientAdapter(merchants, merchantKeys), state };
  }

  it('hands out one metadata object per merchant row and key set, a new one when either changes', async () => {
    const keys: Jwk[] = [{ kty: 'EC', crv: 'P-256', x: 'x', y: 'y', kid: 'k1' }];
    const { adapter, state } = adapterWith(row('Bank'), keys);
    const first = await adapter.find('m_bank');
    expect(await adapter.find('m_bank')).toBe(first);
    state.keys = [{ ...keys[0], kid: 'k2' }];
    const rekeyed = await adapter.find('m_bank');
    expect(rekeyed).not.toBe(first);
    expect((rekeyed?.jwks as { keys: Jwk[] }).keys[0].kid).toBe('k2');
    state.merchant = row('Bank renamed');
    const renamed = await adapter.find('m_bank');
    expect(renamed).not.toBe(rekeyed);
    expect(renamed?.client_name).toBe('Bank renamed');
  });

  it('keeps the metadata of a merchant without keys too', async () => {
    const { adapter } = adapterWith(row('Bank'), undefined);
    expect(await adapter.find('m_bank')).toBe(await adapter.find('m_bank'));
  });
});
