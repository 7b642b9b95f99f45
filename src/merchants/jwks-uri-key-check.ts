import { fetchJwkSet } from './merchant-jwks.js';
import type { OutboundPolicy } from '../common/outbound/outbound-fetch.js';
import type { MerchantEntity } from './merchant.entity.js';

type KeyIds = Pick<MerchantEntity, 'jwksUri' | 'encryptionKeyId' | 'requestObjectKeyId'>;

/**
 * Spec 4.2.3 / 5.5: a key id the merchant names must exist in its set. For an inline set merchant-policy
 * checks it; for a jwks_uri the set is fetched once at registration, so a typo is a 400 naming the field
 * instead of logins failing later. The key is still looked for at every use (a set can change afterwards),
 * and nothing else is ever used in its place. Returns the problems per field, none when nothing is named.
 */
export async function jwksUriKeyProblems(merchant: KeyIds, policy: OutboundPolicy): Promise<Record<string, string[]>> {
  const named = [
    ['encryption_key_id', merchant.encryptionKeyId],
    ['request_object_key_id', merchant.requestObjectKeyId],
  ].filter((entry): entry is [string, string] => Boolean(entry[1]));
  if (!merchant.jwksUri || named.length === 0) return {};
  let kids: unknown[];
  try {
    kids = (await fetchJwkSet(merchant.jwksUri, policy)).map((k) => k.kid);
  } catch (e) {
    return { jwks_uri: [`could not be fetched to check ${named.map(([f]) => f).join(' and ')}: ${(e as Error).message}`] };
  }
  return Object.fromEntries(named.filter(([, kid]) => !kids.includes(kid)).map(([field, kid]) => [field, [`no key with kid "${kid}" at jwks_uri`]]));
}

/** The values the check above depends on, to tell whether a checked state is still the one being saved. */
export const keyIdsOf = (m: KeyIds): string => JSON.stringify([m.jwksUri ?? null, m.encryptionKeyId ?? null, m.requestObjectKeyId ?? null]);
