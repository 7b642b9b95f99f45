import { WalletCheckError } from '../errors.js';
import { isJsonObject } from './bounded-json.js';
import type { DcqlQuery } from './dcql.js';

/** A vp_token as OpenID4VP 1.0 §8.1 shapes it: credential query id → one or more presentations. */
export type VpToken = Record<string, string[]>;

/** Bounds on what one response may carry (a login asks for one credential; these leave room and stop floods). */
const MAX_IDS = 16;
const MAX_PRESENTATIONS = 8;

/**
 * The vp_token's shape (OpenID4VP 1.0 §8.1): a JSON object whose keys are credential query ids and whose values are
 * NON-EMPTY ARRAYS of presentations. Both formats the service accepts present as strings (SD-JWT with KB-JWT, 1.0
 * Appendix B.3.6; base64url DeviceResponse, Appendix B.2.5). Pre-1.0 drafts allowed a bare string per id, and
 * @openid4vc/openid4vp 0.4.6 still accepts one (it wraps it in an array); 1.0 does not, so neither does this.
 */
export function parseVpToken(value: unknown): VpToken {
  if (!isJsonObject(value)) throw new WalletCheckError('malformed', 'vp_token is not a JSON object (OpenID4VP 1.0 §8.1)');
  const entries = Object.entries(value);
  if (entries.length === 0) throw new WalletCheckError('malformed', 'vp_token has no entries');
  if (entries.length > MAX_IDS) throw new WalletCheckError('malformed', `vp_token has more than ${MAX_IDS} entries`);
  const token: VpToken = {};
  for (const [id, presentations] of entries) {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw new WalletCheckError('malformed', 'vp_token has a key that is not a credential query id');
    if (!Array.isArray(presentations)) throw new WalletCheckError('malformed', `vp_token.${id} is not an array of presentations (OpenID4VP 1.0 §8.1)`);
    if (presentations.length === 0) throw new WalletCheckError('malformed', `vp_token.${id} is an empty array`);
    if (presentations.length > MAX_PRESENTATIONS) throw new WalletCheckError('malformed', `vp_token.${id} has more than ${MAX_PRESENTATIONS} presentations`);
    if (!presentations.every((p) => typeof p === 'string' && p.length > 0)) {
      throw new WalletCheckError('malformed', `vp_token.${id} holds a presentation that is not a non-empty string`);
    }
    token[id] = presentations as string[];
  }
  return token;
}

/**
 * The vp_token answers the query (OpenID4VP 1.0 §6.4.2, §8.1): only ids the query has; one presentation per id
 * unless that Credential Query says `multiple`; and the ids present are exactly one allowed choice: all credentials
 * when the query has no credential_sets, else one option of every required set (and optionally of the others),
 * nothing beyond. A wallet that sends more than one alternative (say PID as SD-JWT and as mdoc) sends more personal
 * data than asked (§6.4.2: credentials not selected MUST NOT be returned), and is refused.
 */
export function checkVpTokenAgainstQuery(vpToken: unknown, query: DcqlQuery): VpToken {
  const token = parseVpToken(vpToken);
  const byId = new Map(query.credentials.map((credential) => [credential.id, credential]));
  for (const [id, presentations] of Object.entries(token)) {
    const credential = byId.get(id);
    if (!credential) throw new WalletCheckError('unexpected_credential', `vp_token answers credential query ${id}, which the request did not have`);
    if (presentations.length > 1 && credential.multiple !== true) {
      throw new WalletCheckError(
        'unexpected_credential',
        `vp_token.${id} has ${presentations.length} presentations; the query allows one (multiple is not set)`,
      );
    }
  }
  const present = new Set(Object.keys(token));
  const allowed = query.credential_sets ? answersCredentialSets(present, query.credential_sets) : present.size === query.credentials.length;
  if (!allowed)
    throw new WalletCheckError('unexpected_credential', `vp_token answers [${[...present].join(', ')}], which is none of the options the query allows`);
  return token;
}

/**
 * Whether `present` is exactly the union of one fully present option per required set, and of at most one per
 * optional set. A small search (the service's queries have a handful of options) over each set's choices.
 */
function answersCredentialSets(present: Set<string>, sets: NonNullable<DcqlQuery['credential_sets']>): boolean {
  const choices = sets.map((set) => {
    const full = set.options.filter((option) => option.every((id) => present.has(id)));
    return set.required === false ? [null, ...full] : full;
  });
  const search = (index: number, covered: Set<string>): boolean => {
    if (index === choices.length) return covered.size === present.size;
    return choices[index].some((option) => search(index + 1, option ? new Set([...covered, ...option]) : covered));
  };
  return search(0, new Set());
}
