import { Injectable } from '@nestjs/common';
import type { BrokeredIdentity } from '../../eid/eid-provider.js';
import { MerchantsService } from '../../merchants/merchants.service.js';
import { BrokeredLoginsService } from '../../oidc/logins/brokered-logins.service.js';
import { OidcProviderService } from '../../oidc/provider/oidc-provider.service.js';
import { requestExpired } from '../ciba.errors.js';
import { CibaOutboxService } from '../outbox/ciba-outbox.service.js';
import type { CibaRequest } from '../requests/ciba-requests.service.js';

/**
 * Completes the engine's backchannel request, as the broker pages complete an interaction: an approval makes
 * the grant (implicit consent to the requested scopes) and stores the brokered identity the tokens are
 * answered from; a denial records access_denied for the poll. Ping merchants are then notified through the
 * outbox. (The engine's own backchannelResult would ping at once, without retries, and insists that the
 * account known at the request is the one approved, which a provisioning cannot know beforehand.)
 */
@Injectable()
export class CibaCompletionService {
  constructor(
    private readonly oidc: OidcProviderService,
    private readonly logins: BrokeredLoginsService,
    private readonly merchants: MerchantsService,
    private readonly outbox: CibaOutboxService,
  ) {}

  async approve({ row, details }: CibaRequest, scheme: string, identity: BrokeredIdentity): Promise<void> {
    const engine = this.oidc.engine;
    const request = await this.engineRequest(details.authReqId);
    const grant = new engine.Grant({ accountId: identity.subject, clientId: row.clientId });
    grant.addOIDCScope(details.scopes.join(' '));
    const grantId = await grant.save();
    await this.logins.store(row.clientId, grantId, scheme, identity);
    // A provisioning request was made before the person was known: it is now the verified subject.
    Object.assign(request, {
      accountId: identity.subject,
      grantId,
      acr: identity.acr,
      amr: identity.amr,
      authTime: Math.floor(identity.authTime.getTime() / 1000),
    });
    await request.save();
    await this.notify({ row, details });
  }

  async deny({ row, details }: CibaRequest, description: string): Promise<void> {
    const request = await this.engineRequest(details.authReqId);
    Object.assign(request, { error: 'access_denied', errorDescription: description });
    await request.save();
    await this.notify({ row, details });
  }

  private async engineRequest(authReqId: string) {
    const request = await this.oidc.engine.BackchannelAuthenticationRequest.find(authReqId);
    if (!request || request.isExpired) throw requestExpired();
    return request;
  }

  /** CIBA Core 10.2: a ping says only that the result is ready; the merchant fetches it from the token endpoint. */
  private async notify({ row, details }: CibaRequest): Promise<void> {
    const merchant = await this.merchants.findEnabled(row.clientId);
    if (merchant?.backchannelTokenDeliveryMode !== 'ping' || !merchant.backchannelClientNotificationEndpoint || !details.notificationToken) return;
    await this.outbox.enqueue(row.clientId, 'ping', {
      url: merchant.backchannelClientNotificationEndpoint,
      bearer: details.notificationToken,
      body: { auth_req_id: details.authReqId },
    });
    this.outbox.kick();
  }
}
