/**
 * A fetch for @openid4vc/oauth2's resource-server and metadata paths, which fetch the authorization server's metadata
 * and JWKS (RFC 8414 §3, RFC 7517 §5) on every request they check unless handed a fetch that caches. GETs answered
 * 200 are kept for `ttlSeconds` (bounded in entries and body size); concurrent GETs of one URL share one fetch;
 * failures and other methods are never cached.
 */
export interface CachingFetchOptions {
  /** Default 300. */
  ttlSeconds?: number;
  /** Default 32 URLs; the oldest entry goes first. */
  maxEntries?: number;
  /** Default 256 KiB; a larger answer is passed on but not kept. */
  maxBodyBytes?: number;
  now?: () => Date;
}

interface Entry {
  expires: number;
  answer: Promise<{ status: number; headers: [string, string][]; body: Uint8Array } | undefined>;
}

export function cachingFetch(inner: typeof fetch, options: CachingFetchOptions = {}): typeof fetch {
  const ttlMs = (options.ttlSeconds ?? 300) * 1000;
  const maxEntries = options.maxEntries ?? 32;
  const maxBodyBytes = options.maxBodyBytes ?? 256 * 1024;
  const now = () => (options.now ? options.now() : new Date()).getTime();
  const cache = new Map<string, Entry>();

  const load = async (url: string, init?: RequestInit) => {
    const response = await inner(url, init);
    const body = new Uint8Array(await response.arrayBuffer());
    return { status: response.status, headers: [...response.headers.entries()], body };
  };

  return (async (input: string | URL | Request, init?: RequestInit) => {
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    if (method !== 'GET' || input instanceof Request || init?.body) return inner(input, init);
    const url = input.toString();
    const hit = cache.get(url);
    if (hit && hit.expires > now()) {
      const kept = await hit.answer;
      if (kept) return new Response(kept.body.slice(), { status: kept.status, headers: kept.headers });
    }
    const loading = load(url, init);
    const entry: Entry = {
      expires: now() + ttlMs,
      answer: loading.then((a) => (a.status === 200 && a.body.length <= maxBodyBytes ? a : undefined)).catch(() => undefined),
    };
    cache.delete(url);
    cache.set(url, entry);
    while (cache.size > maxEntries) cache.delete(cache.keys().next().value as string);
    // A failed or uncacheable answer is dropped at once, so the next request asks again.
    void entry.answer.then((kept) => {
      if (!kept && cache.get(url) === entry) cache.delete(url);
    });
    const fresh = await loading;
    return new Response(fresh.body.slice(), { status: fresh.status, headers: fresh.headers });
  }) as typeof fetch;
}
