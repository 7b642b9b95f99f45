import type { Adapter, AdapterPayload, Provider } from 'oidc-provider';

type EngineClient = Awaited<ReturnType<Provider['Client']['find']>>;

/**
 * The engine finds a merchant's client on every request that names one (a code exchange, a refresh, an
 * authorization request): it reads the metadata through our adapter, then serialises and hashes it to find the
 * client it built from the same metadata before. The adapter hands out one metadata object per merchant row and
 * key set (MerchantClientAdapter), so that object is the key here, and the serialising and hashing are done once
 * per version of a merchant instead of once per request. A merchant changed through the admin API is a new row
 * object, hence new metadata and a client built afresh by the engine, as before; a disabled or deleted one is not
 * found by the adapter, and the engine's own answer (unknown) is returned.
 */
export function memoizeClientLookup(provider: Provider, clients: Pick<Adapter, 'find'>): void {
  const Client = provider.Client;
  const engineFind = Client.find.bind(Client);
  const built = new WeakMap<AdapterPayload, NonNullable<EngineClient>>();
  Client.find = async (id: string): Promise<EngineClient> => {
    const metadata = typeof id === 'string' && id.length > 0 ? await clients.find(id) : undefined;
    const known = metadata && built.get(metadata);
    if (known) return known;
    const client = await engineFind(id);
    // Kept only when the engine built it from this very metadata (the merchant did not change in between).
    if (metadata && client && (await clients.find(id)) === metadata) built.set(metadata, client);
    return client;
  };
}
