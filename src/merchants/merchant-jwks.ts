import { logger } from '../common/logging/logger.js';
import type { MerchantEntity } from './merchant.entity.js';
import { outboundGet, type OutboundPolicy } from '../common/outbound/outbound-fetch.js';

export type Jwk = Record<string, unknown>;

const MAX_JWKS_BYTES = 256 * 1024;
const TIMEOUT_MS = 5000;
/** A fetched set is used this long (the engine's own minimum for client JWKS); a failure is retried after RETRY_MS. */
const FRESH_MS = 60_000;
const RETRY_MS = 15_000;

interface Entry {
  until: number;
  keys: Promise<Jwk[] | undefined>;
}

/**
 * A merchant's public keys: its inline set, or the set at its jwks_uri fetched by us (through the
 * address-checking agent) rather than by the engine, so that the key the merchant named (spec 4.2.3, 5.5)
 * can be chosen from it before the engine sees any key. A set that cannot be fetched yields no keys:
 * whatever needs them fails (closed), it never falls back to another key.
 */
export class MerchantJwksSource {
  private readonly cache = new Map<string, Entry>();

  constructor(private readonly policy: OutboundPolicy) {}

  async keysOf(m: Pick<MerchantEntity, 'jwks' | 'jwksUri' | 'clientId'>): Promise<Jwk[] | undefined> {
    if (m.jwks) return (m.jwks.keys ?? []) as Jwk[];
    if (!m.jwksUri) return undefined;
    const now = Date.now();
    const cached = this.cache.get(m.jwksUri);
    if (cached && cached.until > now) return cached.keys;
    const entry: Entry = { until: now + FRESH_MS, keys: this.fetch(m.jwksUri, m.clientId) };
    this.cache.set(m.jwksUri, entry);
    const keys = await entry.keys;
    if (!keys) entry.until = Date.now() + RETRY_MS;
    return keys;
  }

  private async fetch(uri: string, clientId: string): Promise<Jwk[] | undefined> {
    try {
      return await fetchJwkSet(uri, this.policy);
    } catch (err) {
      logger.warn({ client_id: clientId, err: err instanceof Error ? err.message : String(err) }, 'merchant jwks_uri could not be used');
      return undefined;
    }
  }
}

/** The keys at a jwks_uri, fetched now through the address-checking agent; throws with the reason it cannot be used. */
export async function fetchJwkSet(uri: string, policy: OutboundPolicy): Promise<Jwk[]> {
  const res = await outboundGet(new URL(uri), policy, {
    maxBytes: MAX_JWKS_BYTES,
    timeoutMs: TIMEOUT_MS,
    accept: 'application/jwk-set+json, application/json',
  });
  if (res.status !== 200) throw new Error(`answered HTTP ${res.status}, not 200 (redirects are not followed)`);
  let body: { keys?: unknown };
  try {
    body = JSON.parse(res.body.toString('utf8')) as { keys?: unknown };
  } catch {
    throw new Error('is not JSON');
  }
  if (!Array.isArray(body.keys) || !body.keys.every((k) => k && typeof k === 'object' && !Array.isArray(k))) throw new Error('is not a JWK set');
  return body.keys as Jwk[];
}
