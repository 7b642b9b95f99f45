import type { Request } from 'express';
import { sha256Hex } from '../../common/crypto/constant-time.js';
import { parseBasicCredentials } from '../../common/http/basic-credentials.js';
import { hasBody, readRawBody } from '../../common/http/replayable-body.js';
import type { RateLimitBucket } from '../../config/ops-config.js';
import { OIDC_ROUTES } from '../../oidc/provider/routes.js';
import { claimedClientId } from '../../oidc/provider/token-params.middleware.js';
import type { SchemeRateLimit } from '../../broker/spi/scheme-manifest.js';
import { SCHEME_MANIFESTS } from '../../bootstrap/scheme-manifests.js';

export interface LimitTarget {
  bucket: RateLimitBucket;
  /** Who is counted: an IP, a merchant or a session, hashed (no token or address in Redis keys). */
  key: string;
}

/** The engine refuses larger bodies itself; the edge (refuseBadCharacters) has buffered these already, so nothing is read twice. */
const ENGINE_BODY_LIMIT = 56 * 1024;
const MERCHANT_ENDPOINTS: Record<string, RateLimitBucket> = {
  [OIDC_ROUTES.token]: 'token',
  [OIDC_ROUTES.pushed_authorization_request]: 'token',
  [OIDC_ROUTES.backchannel_authentication]: 'ciba',
};
/** The credential issuer's endpoints (src/credential-issuer: VCI_PATHS.prefix); the status lists, answered from memory to every verifier, are not counted. */
const CREDENTIAL_ISSUER_PREFIX = '/vci/';
const STATUS_LISTS_PREFIX = '/vci/status-lists/';
/** The schemes' own limits (their manifests): counted besides the core's, on every instance the same (listed, not enabled). */
const SCHEME_LIMITS: readonly SchemeRateLimit[] = SCHEME_MANIFESTS.flatMap((scheme) => scheme.http?.rateLimits ?? []);

const hashed = (kind: string, value: string) => `${kind}:${sha256Hex(value).slice(0, 32)}`;

/**
 * The merchant a back-channel request names (Basic credentials, client_assertion's iss, client_id in the form or
 * the query), before the engine authenticates it; an unnamed one is counted by its IP. The body was read once at
 * the edge (refuseBadCharacters buffers the engine's bodies) and is parsed here only without Basic credentials.
 */
async function merchantKey(req: Request): Promise<string> {
  const basic = parseBasicCredentials(req.headers.authorization);
  let clientId = basic?.clientId;
  if (!clientId && hasBody(req) && req.is('application/x-www-form-urlencoded')) {
    const body = await readRawBody(req, ENGINE_BODY_LIMIT).catch(() => undefined);
    if (body) clientId = claimedClientId(req, new URLSearchParams(body.toString('utf8')));
  }
  clientId ??= new URLSearchParams(req.originalUrl.split('?')[1] ?? '').get('client_id') ?? undefined;
  return clientId ? hashed('client', clientId) : hashed('ip', req.ip ?? '');
}

/** The schemes' limits this request counts against: by its address, or by its bearer token (none without one). */
function schemeTargets(req: Request, path: string): LimitTarget[] {
  const targets: LimitTarget[] = [];
  for (const limit of SCHEME_LIMITS) {
    if (limit.method && req.method !== limit.method) continue;
    if (!(limit.prefix !== undefined && path.startsWith(limit.prefix)) && !limit.paths?.includes(path)) continue;
    const bearer = limit.per === 'bearer' ? /^Bearer (\S+)$/i.exec(req.headers.authorization ?? '')?.[1] : undefined;
    if (limit.per === 'ip') targets.push({ bucket: limit.bucket, key: hashed('ip', req.ip ?? '') });
    else if (bearer) targets.push({ bucket: limit.bucket, key: hashed('session', bearer) });
  }
  return targets;
}

/** Which limits a request counts against (none for most routes): the core's, then the schemes'. req.ip follows TRUST_PROXY. */
export async function limitTargets(req: Request): Promise<LimitTarget[]> {
  if (req.method === 'OPTIONS') return [];
  return [...(await coreTargets(req)), ...schemeTargets(req, req.path)];
}

async function coreTargets(req: Request): Promise<LimitTarget[]> {
  const path = req.path;
  const merchantBucket = req.method === 'POST' ? MERCHANT_ENDPOINTS[path] : undefined;
  if (merchantBucket) return [{ bucket: merchantBucket, key: await merchantKey(req) }];
  // The authorization endpoint (SAML requests share it) and the broker pages after it; not their static assets.
  if (path.startsWith('/its/') && !path.startsWith('/its/assets/')) {
    return [{ bucket: 'authorization', key: hashed('ip', req.ip ?? '') }];
  }
  // Wallets are apps too at the credential issuer (its token, nonce and credential endpoints, the offers, the revocation page).
  if (path.startsWith(CREDENTIAL_ISSUER_PREFIX) && !path.startsWith(STATUS_LISTS_PREFIX)) return [{ bucket: 'app_api', key: hashed('ip', req.ip ?? '') }];
  if (path.startsWith('/app/v1/')) return [{ bucket: 'app_api', key: hashed('ip', req.ip ?? '') }];
  return [];
}
