import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CompactEncrypt, decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, SignJWT } from 'jose';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

/**
 * A real upstream OpenID provider for end-to-end tests: a second oidc-provider on its own host
 * (127.0.0.2, so a browser keeps its cookies apart from the broker's on 127.0.0.1) with its own users and
 * a tiny interaction that logs the chosen user in at once, or cancels, or fails, as the test says. A test
 * may also have the token endpoint's ID token spoiled (bad signature, wrong nonce, expired), re-signed
 * with the upstream's own key where the signature should stay valid.
 */
export interface UpstreamUser {
  sub: string;
  claims: Record<string, unknown>;
}

export type UpstreamAction = 'login' | 'cancel' | 'error';
/** plain / foreign-key: for clients with encrypted ID tokens, a valid ID token sent unencrypted, or encrypted to a key that is not the broker's. */
export type Tamper = 'bad-signature' | 'wrong-nonce' | 'expired' | 'plain' | 'foreign-key' | undefined;

export interface TestUpstream {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /**
   * What the next interaction does, and as whom; authTime replaces the ID token's auth_time (re-signed, valid
   * otherwise); tokenStatus makes the token endpoint answer that status with an HTML page (a broken gateway).
   */
  next: { action: UpstreamAction; user: string; tamper: Tamper; authTime?: unknown; tokenStatus?: number };
  /** How many HTTP requests reached the upstream at all (an address the broker must not reach stays at 0). */
  requests: number;
  /** The last authorization request's parameters, as the upstream received them. */
  lastAuthorization?: Record<string, unknown>;
  close(): Promise<void>;
  /** Goes down at once: stops listening and drops open connections (a broker's kept-alive socket too), so the next request meets ECONNREFUSED. */
  down(): Promise<void>;
}

export const UPSTREAM_HIGH = 'urn:up:high';
export const UPSTREAM_LOW = 'urn:up:low';

export interface UpstreamOptions {
  /**
   * More clients of the upstream besides the client_secret_basic `broker`, as an operator registers them
   * (e.g. token_endpoint_auth_method private_key_jwt with jwks_uri = the broker's /its/eid/jwks, or
   * id_token_encrypted_response_alg/enc); redirect_uris and the grant are filled in. Given the issuer, so a
   * client can name the upstream's own /jwks (keys that are not the broker's).
   */
  clients?: (issuer: string) => Array<Record<string, unknown> & { client_id: string }>;
  /**
   * Compare client_secret_basic credentials as sent, without the application/x-www-form-urlencoded decoding
   * of RFC 6749 2.3.1, as glewlwyd and others do: a secret with - _ . ~ (which a conforming client encodes)
   * is then refused although it is right.
   */
  rawBasicCredentials?: boolean;
}

export async function startUpstream(users: UpstreamUser[], redirectUri: string, options: UpstreamOptions = {}): Promise<TestUpstream> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = 'upstream-1';
  const jwk = { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
  const issuer = `http://127.0.0.2:${(server.address() as AddressInfo).port}`;
  const byId = new Map(users.map((u) => [u.sub, u]));
  const upstream: TestUpstream = {
    issuer,
    clientId: 'broker',
    clientSecret: 'upstream-secret-for-the-broker-0123456789',
    next: { action: 'login', user: users[0].sub, tamper: undefined },
    requests: 0,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    down: () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      return closed;
    },
  };

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: upstream.clientId,
        client_secret: upstream.clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
      ...(options.clients?.(issuer) ?? []).map((c) => ({
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code' as const],
        ...c,
      })),
    ],
    jwks: { keys: [jwk] },
    findAccount: async (_ctx, sub) => {
      const user = byId.get(sub);
      return user ? { accountId: sub, claims: async () => ({ sub, ...user.claims }) } : undefined;
    },
    scopes: ['openid', 'profile', 'nin'],
    // verified_claims with profile, as an identity-assurance upstream answers them (a user without one gets none).
    claims: { openid: ['sub'], profile: ['name', 'given_name', 'family_name', 'birthdate', 'nationality_code', 'verified_claims'], nin: ['nin'] },
    acrValues: [UPSTREAM_LOW, UPSTREAM_HIGH],
    features: { devInteractions: { enabled: false }, userinfo: { enabled: true }, encryption: { enabled: true } },
    enabledJWA: {
      idTokenEncryptionAlgValues: ['RSA-OAEP-256', 'ECDH-ES', 'ECDH-ES+A128KW', 'ECDH-ES+A256KW'],
      idTokenEncryptionEncValues: ['A128GCM', 'A256GCM', 'A128CBC-HS256', 'A256CBC-HS512'],
    },
    pkce: { required: () => true },
    cookies: { keys: ['upstream-cookie-key-0123456789abcdef'] },
    adapter: MemoryAdapter,
    ttl: { Interaction: 600, Session: 600, Grant: 600, AccessToken: 600, AuthorizationCode: 60, IdToken: 600 },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    // A plain error page of its own (the engine's default announces itself on the console).
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.body = `<h1>upstream error</h1><p>${String(out.error)}: ${String(out.error_description ?? '')}</p>`;
    },
  });
  provider.on('server_error', () => undefined);

  // The engine form-decodes Basic credentials; re-encoding what was sent makes it see them raw, so it compares them undecoded.
  if (options.rawBasicCredentials) {
    provider.use(async (ctx: KoaContextWithOIDC, next: () => Promise<void>) => {
      const basic = /^Basic (.+)$/i.exec(ctx.headers.authorization ?? '');
      if (ctx.path === '/token' && basic) {
        const raw = Buffer.from(basic[1], 'base64').toString();
        const colon = raw.indexOf(':');
        const [id, secret] = [raw.slice(0, colon), raw.slice(colon + 1)];
        ctx.headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
      }
      await next();
    });
  }

  // The token endpoint's answer, spoiled on request.
  provider.use(async (ctx: KoaContextWithOIDC, next: () => Promise<void>) => {
    if (ctx.path === '/token' && upstream.next.tokenStatus) {
      ctx.status = upstream.next.tokenStatus;
      ctx.type = 'html';
      ctx.body = '<h1>Service Unavailable</h1>';
      return;
    }
    await next();
    const body = ctx.body as { id_token?: string } | undefined;
    const { tamper, authTime } = upstream.next;
    if (ctx.path === '/token' && body?.id_token && 'authTime' in upstream.next) {
      const claims = { ...decodeJwt(body.id_token), auth_time: authTime };
      if (authTime === undefined) delete claims.auth_time;
      body.id_token = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' }).sign(privateKey);
    }
    if (ctx.path !== '/token' || !tamper || !body?.id_token) return;
    if (tamper === 'plain' || tamper === 'foreign-key') {
      body.id_token = await replaceEncrypted(
        body.id_token,
        tamper,
        { iss: issuer, sub: upstream.next.user, aud: String(upstream.lastAuthorization?.client_id), nonce: String(upstream.lastAuthorization?.nonce) },
        privateKey,
        kid,
      );
      return;
    }
    body.id_token = await spoil(body.id_token, tamper, privateKey, kid);
  });

  server.on('request', (req, res) => {
    upstream.requests += 1;
    const match = /^\/interaction\/([^/?]+)/.exec(req.url ?? '');
    if (!match) return provider.callback()(req, res);
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      upstream.lastAuthorization = details.params as Record<string, unknown>;
      const { action, user } = upstream.next;
      if (action === 'cancel') return provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'End-User aborted interaction' });
      if (action === 'error') return provider.interactionFinished(req, res, { error: 'server_error', error_description: 'upstream is broken' });
      if (details.prompt.name === 'login') {
        const high = String(details.params.acr_values ?? '')
          .split(' ')
          .includes(UPSTREAM_HIGH);
        return provider.interactionFinished(
          req,
          res,
          { login: { accountId: user, acr: high ? UPSTREAM_HIGH : UPSTREAM_LOW, amr: ['pwd'] } },
          { mergeWithLastSubmission: false },
        );
      }
      const grant = new provider.Grant({ accountId: details.session!.accountId, clientId: String(details.params.client_id) });
      grant.addOIDCScope(String(details.params.scope));
      return provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
    })().catch((err: Error) => {
      res.statusCode = 500;
      res.end(`upstream interaction failed: ${err.message}`);
    });
  });
  return upstream;
}

/** The engine's own in-memory store, minus its start-up warning (a test provider needs nothing more). */
class MemoryAdapter {
  private static readonly store = new Map<string, Record<string, unknown>>();
  constructor(private readonly name: string) {}
  private key(id: string) {
    return `${this.name}:${id}`;
  }
  async upsert(id: string, payload: Record<string, unknown>) {
    MemoryAdapter.store.set(this.key(id), payload);
  }
  async find(id: string) {
    return MemoryAdapter.store.get(this.key(id));
  }
  async findByUid(uid: string) {
    return [...MemoryAdapter.store.values()].find((p) => p.uid === uid);
  }
  async findByUserCode(userCode: string) {
    return [...MemoryAdapter.store.values()].find((p) => p.userCode === userCode);
  }
  async consume(id: string) {
    const p = MemoryAdapter.store.get(this.key(id));
    if (p) p.consumed = Math.floor(Date.now() / 1000);
  }
  async destroy(id: string) {
    MemoryAdapter.store.delete(this.key(id));
  }
  async revokeByGrantId(grantId: string) {
    for (const [k, p] of MemoryAdapter.store) if (p.grantId === grantId) MemoryAdapter.store.delete(k);
  }
}

/**
 * An ID token that is right in every claim (signed by the upstream, our nonce and audience) but either not
 * encrypted at all, or encrypted under the same header (alg, enc, our kid) to a key that is not ours.
 */
async function replaceEncrypted(
  jwe: string,
  tamper: 'plain' | 'foreign-key',
  claims: Record<string, string>,
  key: Parameters<SignJWT['sign']>[0],
  kid: string,
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const signed = await new SignJWT({ ...claims, iat: now, exp: now + 300 }).setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' }).sign(key);
  if (tamper === 'plain') return signed;
  const header = decodeProtectedHeader(jwe) as { alg: string; enc: string; kid?: string };
  const { publicKey } = await generateKeyPair(header.alg, { extractable: true });
  return new CompactEncrypt(new TextEncoder().encode(signed))
    .setProtectedHeader({ alg: header.alg, enc: header.enc, kid: header.kid, cty: 'JWT' })
    .encrypt(publicKey);
}

async function spoil(idToken: string, tamper: 'bad-signature' | 'wrong-nonce' | 'expired', key: Parameters<SignJWT['sign']>[0], kid: string): Promise<string> {
  if (tamper === 'bad-signature') {
    const [header, payload, signature] = idToken.split('.');
    const i = Math.floor(signature.length / 2);
    return [header, payload, signature.slice(0, i) + (signature[i] === 'A' ? 'B' : 'A') + signature.slice(i + 1)].join('.');
  }
  const claims = decodeJwt(idToken);
  const now = Math.floor(Date.now() / 1000);
  const changed = tamper === 'wrong-nonce' ? { ...claims, nonce: 'not-the-nonce-we-were-given' } : { ...claims, iat: now - 3600, exp: now - 1800 };
  return new SignJWT(changed).setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' }).sign(key);
}

export type { Server };
