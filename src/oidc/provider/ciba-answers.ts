import type { default as Provider, KoaContextWithOIDC } from 'oidc-provider';
import { PAIRWISE_CIBA_REASON } from '../../merchants/merchant-policy.js';
import { AppError } from '../../common/errors/app-error.js';
import { answerEngineError } from '../../common/errors/engine-error-hook.js';
import { addedToAnswer, answeredHere, type CibaHooksSlot } from './ciba-hooks.js';

export const CIBA_GRANT_TYPE = 'urn:openid:params:grant-type:ciba';

/** The engine's answer (authorization/client.js) to a backchannel request of a client without the CIBA grant. */
const GRANT_NOT_ALLOWED = `${CIBA_GRANT_TYPE} is not allowed for this client`;

/** What the engine answered to a CIBA poll that the CIBA module may refine (slow_down, expired_token). */
const REFINED = new Set(['authorization_pending', 'invalid_grant']);

/**
 * Answers of the CIBA module in place of the engine's. A backchannel request it answered itself (answerHere).
 * CIBA polls (CIBA Core 7.3, 11): slow_down and expired_token, which the engine does not answer, are worked out
 * after the engine has handled the poll. Its answer is authorization_pending or invalid_grant only once the
 * client has authenticated (the grant handler runs after client authentication), and the CIBA module looks up
 * the request of that client alone: a caller who merely claims a client_id, or another merchant holding the
 * auth_req_id, can neither make the owner's interval grow nor learn whether the request has expired.
 */
export function applyCibaAnswers(provider: Provider, ciba: CibaHooksSlot): void {
  /* eslint-disable-next-line complexity -- one middleware, four answers of the CIBA routes tried in order after the
     engine (each returns); one middleware keeps their order explicit */
  provider.use(async (ctx, next) => {
    await next();
    // A backchannel request the CIBA module answered itself (a cancel): its answer, not the marker error.
    const answer = ctx.oidc?.route === 'backchannel_authentication' ? answeredHere(ctx as KoaContextWithOIDC) : undefined;
    if (answer) {
      ctx.status = 200;
      ctx.body = answer;
      return;
    }
    // A request the engine accepted: the members the CIBA module adds (a provisioning's one-time code), before
    // the answer is signed for a merchant that asks for a JWT (spec-response-rules.ts, around this).
    const added = ctx.oidc?.route === 'backchannel_authentication' && ctx.status === 200 ? addedToAnswer(ctx as KoaContextWithOIDC) : undefined;
    if (added && ctx.body && typeof ctx.body === 'object') {
      Object.assign(ctx.body, added);
      return;
    }
    // Pairwise merchants have no CIBA grant (merchant-client.ts). The engine calls that invalid_request; CIBA Core 13
    // names it unauthorized_client ("not authorized to use this authentication flow"), and the merchant is told why.
    // Only that answer of the engine (given after client authentication) is replaced: nothing is said before.
    const client = ctx.oidc?.client;
    const refused = ctx.body as { error?: unknown; error_description?: unknown } | undefined;
    if (ctx.oidc?.route === 'backchannel_authentication' && client && refused?.error === 'invalid_request' && refused.error_description === GRANT_NOT_ALLOWED) {
      const description = client.subjectType === 'pairwise' ? PAIRWISE_CIBA_REASON : 'this client is not registered for CIBA';
      return answerEngineError(ctx, new AppError(400, 'unauthorized_client', description));
    }
    if (ctx.oidc?.route !== 'token' || ctx.oidc.params?.grant_type !== CIBA_GRANT_TYPE) return;
    const body = ctx.body as { error?: unknown } | undefined;
    const authReqId = ctx.oidc.params.auth_req_id;
    const clientId = ctx.oidc.client?.clientId;
    if (!body || typeof body.error !== 'string' || !REFINED.has(body.error) || typeof authReqId !== 'string' || !clientId) return;
    const refined = await ciba.get().answerPoll(authReqId, clientId, body.error as 'authorization_pending' | 'invalid_grant');
    if (!refined) return;
    answerEngineError(ctx, refined);
  });
}
