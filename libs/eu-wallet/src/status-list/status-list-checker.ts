import { WalletCheckError } from '../errors.js';
import type { RevocationCheck } from '../trust/revocation-checker.js';
import { requireSameIssuer, type CredentialSigner } from './status-issuer.js';
import { verifyStatusListToken, type VerifiedStatusList } from './status-list-token.js';

export interface StatusListCheckerOptions {
  /** Fetches the Status List Token (a compact JWT) at `uri`. The service passes its address-filtered fetch: the library does no network. */
  fetchStatusList: (uri: string) => Promise<string>;
  /** DER roots the token's x5c must chain to: the same anchors as the credentials'. */
  trustAnchors: Uint8Array[];
  now?: () => Date;
  /** The longest a list is kept, whatever its ttl says; default 300. */
  maxCacheSeconds?: number;
  /** Revocation of the token signer's chain (CRLs), checked when a list is fetched. */
  revocation?: RevocationCheck;
}

interface CachedList {
  verified: VerifiedStatusList;
  /** Epoch milliseconds after which the list is fetched again. */
  until: number;
}

/** Codes that keep their own name rather than "status could not be established": they say who is at fault. */
const OWN_CODES = new Set(['status_signer_mismatch', 'certificate_revoked', 'revocation_unknown']);

/** Enough lists for every issuer a service trusts; past it the oldest entry goes. */
const MAX_CACHED_LISTS = 1000;

/** Token Status List draft, "Status Types": 0x00 VALID, 0x01 INVALID, 0x02 SUSPENDED. Others are not ours to read. */
const VALID = 0;
const INVALID = 1;
const SUSPENDED = 2;

const unknownStatus = (reason: string, cause?: unknown) => new WalletCheckError('revoked', `status could not be established: ${reason}`, { cause });

/**
 * Accepts a Referenced Token's status value only when it is VALID (Token Status List draft, "Status Types"); INVALID,
 * SUSPENDED and values this verifier does not know are `revoked`. For a status the caller learnt from a list it trusts
 * without a token (the service's own credentials, looked up in process) as for one read from a Status List Token.
 */
export function requireValidStatus(status: number): void {
  if (status === VALID) return;
  if (status === INVALID) throw new WalletCheckError('revoked', 'the credential is revoked (status INVALID)');
  if (status === SUSPENDED) throw new WalletCheckError('revoked', 'the credential is suspended (status SUSPENDED)');
  throw unknownStatus(`status value ${status} is not one this verifier knows`);
}

/**
 * Checks a Referenced Token's status against its Status List Token (Token Status List draft, "Referenced Token" and
 * "Validation Rules"). Fails closed: an unreachable list, one that does not verify, an index outside it or a status
 * value other than VALID, INVALID or SUSPENDED is `revoked` ("status could not be established"). Lists are cached per
 * uri for their `ttl` ("Caching"), bounded by `maxCacheSeconds` and by `exp`; concurrent checks of one uri share one fetch.
 * A list signed by another issuer than the credential's is `status_signer_mismatch` (status-issuer.ts), and a revoked
 * or unknown certificate of the list signer's chain keeps its own code (revocation-checker.ts).
 */
export class StatusListChecker {
  private readonly cache = new Map<string, CachedList>();
  private readonly inFlight = new Map<string, Promise<CachedList>>();
  private readonly now: () => Date;
  private readonly maxCacheSeconds: number;

  constructor(private readonly options: StatusListCheckerOptions) {
    this.now = options.now ?? (() => new Date());
    this.maxCacheSeconds = options.maxCacheSeconds ?? 300;
  }

  /**
   * `signer` is who signed the credential (its verifier's result): a list cached for the uri is held against each
   * credential that points at it, so a list signed by another trusted issuer is refused whoever fetched it first.
   */
  async check(ref: { uri: string; idx: number }, signer: CredentialSigner): Promise<void> {
    let entry: CachedList;
    try {
      entry = await this.list(ref.uri);
    } catch (cause) {
      if (cause instanceof WalletCheckError && OWN_CODES.has(cause.code)) throw cause;
      const reason = cause instanceof WalletCheckError ? cause.message : 'the status list could not be fetched';
      throw unknownStatus(reason, cause);
    }
    const { list, chain, iss } = entry.verified;
    requireSameIssuer(signer, { leaf: chain.leaf, anchor: chain.anchor, iss });
    if (!Number.isSafeInteger(ref.idx) || ref.idx < 0 || ref.idx >= list.statusList.length) throw unknownStatus('idx is outside the status list');
    requireValidStatus(list.getStatus(ref.idx));
  }

  private list(uri: string): Promise<CachedList> {
    const cached = this.cache.get(uri);
    if (cached && cached.until > this.now().getTime()) return Promise.resolve(cached);
    let pending = this.inFlight.get(uri);
    if (!pending) {
      pending = this.load(uri).finally(() => this.inFlight.delete(uri));
      this.inFlight.set(uri, pending);
    }
    return pending;
  }

  private async load(uri: string): Promise<CachedList> {
    // A failed fetch propagates as is: check() names it "could not be fetched" and keeps it as the cause.
    const jwt = await this.options.fetchStatusList(uri);
    const now = this.now();
    const verified = verifyStatusListToken(jwt, uri, this.options.trustAnchors, now);
    await this.options.revocation?.checkPath(verified.chain.path);
    // "Caching": keep for ttl (the issuer's hint), never longer than maxCacheSeconds nor past exp.
    const keepSeconds = Math.min(verified.ttl ?? this.maxCacheSeconds, this.maxCacheSeconds);
    let until = now.getTime() + keepSeconds * 1000;
    if (verified.expiresAt !== undefined) until = Math.min(until, verified.expiresAt * 1000);
    const entry = { verified, until };
    this.cache.delete(uri);
    this.cache.set(uri, entry);
    if (this.cache.size > MAX_CACHED_LISTS) this.cache.delete(this.cache.keys().next().value as string);
    return entry;
  }
}
