import { Inject, Injectable } from '@nestjs/common';
import { type ReusableCredentialProvider, ReusableCredentials } from '../../broker/spi/reusable-credentials.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { issuerUrls } from '../credential-issuer-paths.js';
import { IssuerKeysService } from '../keys/issuer-keys.service.js';
import { STATUS_INVALID } from '../status/issued-credential-status.entity.js';
import { STATUS_LIST_ID, STATUS_LIST_SIZE, statusListUri } from '../status/status-list-paths.js';
import { StatusListTokens } from '../status/status-list-tokens.service.js';

/**
 * What the wallet scheme needs to accept the credentials this issuer issued: their type, this issuer's identifier,
 * the roots its issuer certificates chain to (customer-test's sealed test root; production's configured anchors),
 * and their status, read from the state the status-list endpoint serves rather than fetched from ourselves over HTTP
 * (our own hostname may resolve to an address the outbound filter refuses, and the round trip is wasted).
 */
@Injectable()
@ReusableCredentials()
export class OwnCredentialTrust implements ReusableCredentialProvider {
  readonly vct: string;
  readonly issuer: string;
  private readonly listPrefix: string;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly keys: IssuerKeysService,
    private readonly tokens: StatusListTokens,
  ) {
    const urls = issuerUrls(config.baseUrl);
    this.vct = urls.vct;
    this.issuer = urls.issuer;
    this.listPrefix = statusListUri(config.baseUrl, '');
  }

  anchors(): Promise<Uint8Array[]> {
    return this.keys.anchors();
  }

  /**
   * Token Status List §6.2: `uri` names the list, `idx` the entry. Ours are exactly `${BASE_URL}/vci/status-lists/<id>`;
   * under that prefix, an id or index no list of ours has is INVALID, as a fetch of it would fail (404, or an index
   * outside the list), without a query for an id not shaped like ours.
   */
  async statusOf(reference: { uri: string; idx: number }): Promise<number | undefined> {
    if (typeof reference.uri !== 'string' || !reference.uri.startsWith(this.listPrefix)) return undefined;
    const listId = reference.uri.slice(this.listPrefix.length);
    const { idx } = reference;
    if (!STATUS_LIST_ID.test(listId) || !Number.isSafeInteger(idx) || idx < 0 || idx >= STATUS_LIST_SIZE) return STATUS_INVALID;
    return (await this.tokens.statusOf(listId, idx)) ?? STATUS_INVALID;
  }
}
