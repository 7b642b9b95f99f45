import type { NextFunction, Request, Response } from 'express';
import { decodeJwt } from 'jose';
import { readRawBody, replayBody } from '../../common/http/replayable-body.js';
import type { MerchantsService } from '../../merchants/merchants.service.js';
import { parseBasicCredentials } from '../../common/http/basic-credentials.js';
import { OIDC_ROUTES } from './routes.js';

const FORM = 'application/x-www-form-urlencoded';
const ENGINE_BODY_LIMIT = 56 * 1024;

/**
 * Spec 4.4 and 4.3 send the parameters in the query string; the engine reads only the form body. Only the
 * parameters those sections list are taken from the query (plus auth_req_id, the CIBA poll's): credentials
 * (client_secret, client_assertion) and refresh tokens never, so they do not end up in URLs. The access log
 * never records query strings (client_notification_token is one of 4.3's).
 */
const QUERY_PARAMS: Record<string, string[]> = {
  [OIDC_ROUTES.token]: ['grant_type', 'code', 'redirect_uri', 'client_id', 'code_verifier', 'auth_req_id'],
  [OIDC_ROUTES.backchannel_authentication]: [
    'scope',
    'client_notification_token',
    'login_hint_token',
    'acr_values',
    'id_token_hint',
    'login_hint',
    'user_code',
    'binding_message',
    'requested_expiry',
  ],
};

/** The merchant a token request names, before the engine authenticates it (only to pick its redirect URI). */
export function claimedClientId(req: Request, params: URLSearchParams): string | undefined {
  const basic = parseBasicCredentials(req.headers.authorization);
  if (basic) return basic.clientId;
  const assertion = params.get('client_assertion');
  if (assertion) {
    try {
      const { iss } = decodeJwt(assertion);
      if (typeof iss === 'string') return iss;
    } catch {
      return undefined;
    }
  }
  return params.get('client_id') ?? undefined;
}

/**
 * POST /oidc/token in front of the engine: query parameters of spec 4.4 are moved into the form body
 * (the body wins when both carry one), and `redirect_uri`, optional in 4.4, is filled in with the
 * merchant's only registered redirect URI. The engine's own switch for that
 * (allowOmittingSingleRegisteredRedirectUri) would also drop it at the authorization endpoint, where
 * spec 4.2 requires it. The engine still checks it against the code and authenticates the client.
 */
export function tokenParamsMiddleware(merchants: MerchantsService) {
  return async (req: Request, _res: Response, next: NextFunction): Promise<void> => {
    const queryParams = QUERY_PARAMS[req.path];
    if (req.method !== 'POST' || !queryParams) return next();
    const hasForm = Boolean(req.headers['content-type']);
    // Any other body type is the engine's to refuse, with its own message.
    if (hasForm && !req.is(FORM)) return next();
    try {
      const body = hasForm ? new URLSearchParams((await readRawBody(req, ENGINE_BODY_LIMIT)).toString('utf8')) : new URLSearchParams();
      const query = new URLSearchParams(req.originalUrl.split('?')[1] ?? '');
      let changed = false;
      for (const name of queryParams) {
        if (body.has(name) || !query.has(name)) continue;
        for (const value of query.getAll(name)) body.append(name, value);
        changed = true;
      }
      if (body.get('grant_type') === 'authorization_code' && !body.has('redirect_uri')) {
        const clientId = claimedClientId(req, body);
        const merchant = clientId ? await merchants.findEnabled(clientId) : undefined;
        if (merchant?.redirectUris.length === 1) {
          body.set('redirect_uri', merchant.redirectUris[0]);
          changed = true;
        }
      }
      if (changed) {
        req.headers['content-type'] = FORM;
        replayBody(req, Buffer.from(body.toString(), 'utf8'));
      }
      next();
    } catch (e) {
      next(e);
    }
  };
}
