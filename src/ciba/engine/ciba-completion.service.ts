import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { BrokeredIdentity } from '../../broker/spi/eid-provider.js';
import { MerchantsService } from '../../merchants/merchants.service.js';
import { BrokeredLoginsService } from '../../broker/logins/brokered-logins.service.js';
import { OidcProviderService } from '../../oidc/provider/oidc-provider.service.js';
import { inEngineTransaction } from '../../oidc/storage/engine-transaction.js';
import { requestExpired, requestNotPending } from '../ciba.errors.js';
import { CibaOutboxService } from '../outbox/ciba-outbox.service.js';
import { CibaPushTokensService } from './ciba-push-tokens.service.js';
import type { CibaRequestState } from '../requests/ciba-request.entity.js';
import { type CibaRequest, CibaRequestsService } from '../requests/ciba-requests.service.js';

interface Callback {
  mode: 'ping' | 'push';
  url: string;
  bearer: string;
}

/** Further writes that belong to an approval (a provisioning's binding), made in its transaction. */
export type ApprovalStep = (manager: EntityManager) => Promise<void>;

/**
 * Completes the engine's backchannel request, as the broker pages complete an interaction: an approval makes
 * the grant (implicit consent to the requested scopes) and stores the brokered identity the tokens are
 * answered from; a denial records access_denied for the poll. Ping and push merchants are then notified
 * through the outbox. (The engine's own backchannelResult would ping at once, without retries, and insists that the
 * account known at the request is the one approved, which a provisioning cannot know beforehand.)
 *
 * Our state change, the engine's result and the callback row are written in one transaction: the merchant
 * never sees a result it would not be told about, and a crash before the commit leaves the request open.
 */
@Injectable()
export class CibaCompletionService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly oidc: OidcProviderService,
    private readonly logins: BrokeredLoginsService,
    private readonly merchants: MerchantsService,
    private readonly outbox: CibaOutboxService,
    private readonly requests: CibaRequestsService,
    private readonly pushTokens: CibaPushTokensService,
  ) {}

  async approve(request: CibaRequest, scheme: string, identity: BrokeredIdentity, step?: ApprovalStep): Promise<void> {
    const { row, details } = request;
    const engine = this.oidc.engine;
    const engineRequest = await this.engineRequest(details.authReqId);
    // Read before the transaction: inside it, a read that misses the merchant cache would need a second connection.
    const callback = await this.callbackOf(request);
    const client = callback?.mode === 'push' ? await this.pushTokens.clientOf(engineRequest) : undefined;
    await inEngineTransaction(this.dataSource, async (manager) => {
      // From pending too: the customer-test page answers without the app's verification step.
      await this.claim(request, ['pending', 'verifying'], 'approved', manager);
      await step?.(manager);
      const grant = new engine.Grant({ accountId: identity.subject, clientId: row.clientId });
      grant.addOIDCScope(details.scopes.join(' '));
      const grantId = await grant.save();
      await this.logins.store(row.clientId, grantId, scheme, identity, manager);
      // A provisioning request was made before the person was known: it is now the verified subject.
      Object.assign(engineRequest, {
        accountId: identity.subject,
        grantId,
        acr: identity.acr,
        amr: identity.amr,
        authTime: Math.floor(identity.authTime.getTime() / 1000),
      });
      await engineRequest.save();
      // A push carries the tokens themselves (CIBA Core 10.3.1), and names their grant: revoked if the push is given up.
      if (callback && client)
        await this.notify(request, callback, manager, await this.pushTokens.tokenResponse(engineRequest, client, grant, scheme, identity), grantId);
      else if (callback) await this.notify(request, callback, manager);
    });
    this.outbox.kick();
  }

  /** The user declined (or failed the verification), or the merchant cancelled (`cancelled`): the poll gets access_denied. */
  async deny(request: CibaRequest, description: string, to: 'denied' | 'cancelled' = 'denied'): Promise<void> {
    const engineRequest = await this.engineRequest(request.details.authReqId);
    const callback = await this.callbackOf(request);
    await inEngineTransaction(this.dataSource, async (manager) => {
      await this.claim(request, ['pending', 'verifying'], to, manager);
      Object.assign(engineRequest, { error: 'access_denied', errorDescription: description });
      await engineRequest.save();
      // CIBA Core 12: a push merchant gets the error itself.
      if (callback) await this.notify(request, callback, manager, { error: 'access_denied', error_description: description });
    });
    this.outbox.kick();
  }

  /** The conditional state change comes first: of two concurrent answers, the second waits for the first and loses. */
  private async claim({ row }: CibaRequest, from: CibaRequestState[], to: CibaRequestState, manager: EntityManager): Promise<void> {
    if (!(await this.requests.transition(row.id, from, to, {}, manager))) throw requestNotPending('already answered or expired');
  }

  private async engineRequest(authReqId: string) {
    const request = await this.oidc.engine.BackchannelAuthenticationRequest.find(authReqId);
    if (!request || request.isExpired) throw requestExpired();
    return request;
  }

  /** Where and how the merchant is told of the result (ping or push with an endpoint and a token), if at all. */
  private async callbackOf({ row, details }: CibaRequest): Promise<Callback | undefined> {
    const merchant = await this.merchants.findEnabled(row.clientId);
    const mode = merchant?.backchannelTokenDeliveryMode;
    const url = merchant?.backchannelClientNotificationEndpoint;
    if ((mode !== 'ping' && mode !== 'push') || !url || !details.notificationToken) return undefined;
    return { mode, url, bearer: details.notificationToken };
  }

  /**
   * CIBA Core 10.2: a ping says only that the result is ready; the merchant fetches it from the token endpoint.
   * 10.3.1 / 12: a push carries the result itself (`pushBody`: the token response or the error), with auth_req_id.
   */
  private async notify(
    { row, details }: CibaRequest,
    callback: Callback,
    manager: EntityManager,
    pushBody: Record<string, unknown> = {},
    grantId?: string,
  ): Promise<void> {
    const body = callback.mode === 'push' ? { auth_req_id: details.authReqId, ...pushBody } : { auth_req_id: details.authReqId };
    const revocable = callback.mode === 'push' && grantId ? { grantId } : {};
    await this.outbox.enqueue(row.clientId, callback.mode, { url: callback.url, bearer: callback.bearer, body, ...revocable }, manager);
  }
}
