import { Injectable } from '@nestjs/common';
import { errors } from 'oidc-provider';
import { CibaError } from '../ciba.errors.js';
import { CibaRequestsService } from '../requests/ciba-requests.service.js';
import { CibaCompletionService } from './ciba-completion.service.js';

/** One answer for every auth_req_id that cannot be cancelled: unknown, another merchant's, answered or expired. */
const NOT_OPEN = 'binding_message auth_req_id names no open backchannel request of this client';

/**
 * Spec 4.7 `operation: cancel`: a merchant cancels its own open request. The request ends as `cancelled`
 * (the app sees that), the merchant's poll gets access_denied, and ping/push merchants are told through the
 * outbox, as for a decline. Whether an auth_req_id exists at another merchant is never revealed.
 */
@Injectable()
export class CibaCancelService {
  constructor(
    private readonly requests: CibaRequestsService,
    private readonly completion: CibaCompletionService,
  ) {}

  /** Answers the 2.6 object of the cancelled request (its remaining lifetime: polls answer access_denied until then). */
  async cancel(clientId: string, authReqId: string): Promise<{ auth_req_id: string; expires_in: number }> {
    const request = await this.requests.openOfMerchant(authReqId, clientId);
    if (!request) throw new errors.InvalidRequest(NOT_OPEN);
    try {
      await this.completion.deny(request, 'the client cancelled the request', 'cancelled');
    } catch (e) {
      // Answered or expired meanwhile (a lost race): the same answer as for any request that is not open.
      if (e instanceof CibaError) throw new errors.InvalidRequest(NOT_OPEN);
      throw e;
    }
    return { auth_req_id: authReqId, expires_in: Math.max(1, Math.ceil((request.row.expiresAt.getTime() - Date.now()) / 1000)) };
  }
}
