import { Inject, Injectable } from '@nestjs/common';
import { sign } from 'node:crypto';
import { createHeaderAndPayload, StatusList } from '@sd-jwt/jwt-status-list';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { IssuerKeysService } from '../keys/issuer-keys.service.js';
import type { IssuerSigner } from '../keys/issuer-signer.js';
import { STATUS_LIST_SIZE, statusListUri } from './status-list-paths.js';

/** A token is valid a day; it is signed again after half of that even when nothing changed. */
const TOKEN_LIFETIME_S = 86_400;
const REBUILD_AFTER_MS = (TOKEN_LIFETIME_S / 2) * 1000;

interface CachedToken {
  token: string;
  /** The entries the token marks not VALID (idx → status): what statusOf() answers from, without decoding the token. */
  notValid: Map<number, number>;
  version: string;
  kid: string;
  builtAt: number;
}

const b64u = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * The signed Status List Tokens (Token Status List §5, JWT format), served from memory. A token is signed again only
 * when its list's version changed (a revocation), the signer changed (a rotation) or it is half-way to its exp: a
 * request neither signs nor reads the list's rows. The versions of all lists are read at most every
 * VCI_STATUS_LIST_REFRESH_SECONDS (one small query), so another instance's revocation is served within that; this
 * instance's own revocations are known at once (changed()).
 */
@Injectable()
export class StatusListTokens {
  private versions = new Map<string, string>();
  private checkedAt = 0;
  private checking?: Promise<void>;
  private readonly tokens = new Map<string, CachedToken>();
  private readonly building = new Map<string, Promise<CachedToken>>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly keys: IssuerKeysService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The token of `listId`, or undefined when there is no such list. */
  async token(listId: string): Promise<string | undefined> {
    return (await this.current(listId))?.token;
  }

  /**
   * The status of entry `idx` of `listId` as its served token says (0 VALID when it marks nothing there), or undefined
   * when there is no such list: the same state and the same cost as serving the token (no query beyond the versions'
   * refresh), so this instance's revocations count at once and another instance's within the refresh interval.
   */
  async statusOf(listId: string, idx: number): Promise<number | undefined> {
    const cached = await this.current(listId);
    if (!cached) return undefined;
    return cached.notValid.get(idx) ?? 0;
  }

  private async current(listId: string): Promise<CachedToken | undefined> {
    await this.refreshVersions();
    const version = this.versions.get(listId) ?? (await this.lookUp(listId));
    if (version === undefined) return undefined;
    const signer = await this.keys.current();
    const cached = this.tokens.get(listId);
    if (cached && cached.version === version && cached.kid === signer.kid && Date.now() - cached.builtAt < REBUILD_AFTER_MS) return cached;
    const key = `${listId}:${version}:${signer.kid}`;
    let build = this.building.get(key);
    if (!build) {
      build = this.build(listId, version, signer).finally(() => this.building.delete(key));
      this.building.set(key, build);
    }
    const built = await build;
    const current = this.tokens.get(listId);
    if (!current || BigInt(current.version) <= BigInt(built.version)) this.tokens.set(listId, built);
    return built;
  }

  /** This instance changed these lists (their new versions): the next request serves the new state. */
  changed(versions: Iterable<[string, string]>): void {
    for (const [id, version] of versions) if (BigInt(version) > BigInt(this.versions.get(id) ?? '-1')) this.versions.set(id, version);
  }

  private refreshVersions(): Promise<void> {
    if (Date.now() - this.checkedAt < this.config.credentialIssuer.statusListRefreshSeconds * 1000) return Promise.resolve();
    this.checking ??= (async () => {
      try {
        const rows = (await this.dataSource.query('SELECT id, version::text AS version FROM credential_status_lists')) as { id: string; version: string }[];
        const next = new Map(rows.map((r) => [r.id, r.version]));
        // A change this instance made after the query started is not lost.
        for (const [id, version] of this.versions) if (next.has(id) && BigInt(version) > BigInt(next.get(id)!)) next.set(id, version);
        this.versions = next;
        this.checkedAt = Date.now();
      } finally {
        this.checking = undefined;
      }
    })();
    return this.checking;
  }

  /** A list created on another instance since the last refresh. */
  private async lookUp(listId: string): Promise<string | undefined> {
    const rows = (await this.dataSource.query('SELECT version::text AS version FROM credential_status_lists WHERE id = $1', [listId])) as { version: string }[];
    if (!rows[0]) return undefined;
    this.changed([[listId, rows[0].version]]);
    return rows[0].version;
  }

  /** Reads the list's revoked entries only (a partial index), after its version: the token is never older than `version`. */
  private async build(listId: string, version: string, signer: IssuerSigner): Promise<CachedToken> {
    const rows = (await this.dataSource.query('SELECT idx, status FROM issued_credential_status WHERE list_id = $1 AND status <> 0', [listId])) as {
      idx: number;
      status: number;
    }[];
    const values = new Array<number>(STATUS_LIST_SIZE).fill(0);
    const notValid = new Map<number, number>();
    for (const r of rows) {
      values[r.idx] = Number(r.status);
      notValid.set(Number(r.idx), Number(r.status));
    }
    const iat = Math.floor(Date.now() / 1000);
    const { header, payload } = createHeaderAndPayload(
      new StatusList(values, 1),
      // §5.1: sub is the uri the referenced tokens name; ttl tells relying parties how long they may cache it.
      { sub: statusListUri(this.config.baseUrl, listId), iat, exp: iat + TOKEN_LIFETIME_S, ttl: this.config.credentialIssuer.statusListTtlSeconds },
      { alg: 'ES256', typ: 'statuslist+jwt', kid: signer.kid, x5c: signer.chain.map((der) => Buffer.from(der).toString('base64')) },
    );
    const signingInput = `${b64u(header)}.${b64u(payload)}`;
    const signature = sign('sha256', Buffer.from(signingInput), { key: signer.privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url');
    return { token: `${signingInput}.${signature}`, notValid, version, kid: signer.kid, builtAt: Date.now() };
  }
}
