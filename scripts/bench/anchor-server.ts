/**
 * The bare engine for `npm run bench:anchor`: the same oidc-provider version as the service, unmodified, with
 * its in-memory adapter, two static clients (RS256 and ES256 ID tokens) and, instead of its development
 * interactions, a minimal login of our own with the shape of a broker login: an authorization request, a
 * login page, a login POST, a consent step granted at once, the redirect with the code, the code exchange.
 * The store is the engine's in-memory adapter unless ANCHOR_STORE names another (anchor-stores.ts).
 * Run as its own process (so its CPU is its own); prints {"port": n} once it listens.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type Configuration } from 'oidc-provider';
import { ANCHOR_CLIENTS, ANCHOR_REDIRECT_URI } from './anchor-clients.js';
import { postgresAdapter, redisAdapter, splitAdapter, type AdapterFactory } from './anchor-stores.js';

async function signingKeys() {
  const keys = [];
  for (const alg of ['RS256', 'ES256'] as const) {
    const { privateKey } = await generateKeyPair(alg, { extractable: true, ...(alg === 'RS256' ? { modulusLength: 2048 } : {}) });
    keys.push({ ...(await exportJWK(privateKey)), alg, use: 'sig', kid: `anchor-${alg}` });
  }
  return keys;
}

/**
 * The engine's own in-memory adapter keeps at most 1000 entries (an LRU per provider), fewer than one benchmark
 * run makes: codes would be evicted before their exchange. The same adapter class, given a larger LRU store.
 */
async function memoryAdapter(): Promise<(model: string) => unknown> {
  type Adapter = new (model: string, store: unknown) => unknown;
  const { default: MemoryAdapter } = (await import('oidc-provider/lib/adapters/memory_adapter.js' as string)) as { default: Adapter };
  const { default: LRU } = (await import('oidc-provider/lib/helpers/lru.js' as string)) as { default: new (o: { maxSize: number }) => unknown };
  const store = new LRU({ maxSize: 1_000_000 });
  return (model) => new MemoryAdapter(model, store);
}

async function chosenStore(): Promise<{ factory: AdapterFactory; close(): Promise<void> }> {
  const store = process.env.ANCHOR_STORE ?? 'memory';
  if (store === 'postgres') return postgresAdapter(process.env.ANCHOR_DATABASE_URL!);
  if (store === 'redis') return redisAdapter(process.env.ANCHOR_REDIS_URL!);
  if (store === 'split') return splitAdapter(await postgresAdapter(process.env.ANCHOR_DATABASE_URL!), redisAdapter(process.env.ANCHOR_REDIS_URL!));
  if (store !== 'memory') throw new Error(`ANCHOR_STORE: memory, postgres, redis or split, not ${store}`);
  return { factory: await memoryAdapter(), close: async () => undefined };
}

const store = await chosenStore();
const port = Number(process.env.PORT ?? 0);
const listening = createServer();
await new Promise<void>((resolve) => listening.listen(port, '127.0.0.1', resolve));
const actualPort = (listening.address() as { port: number }).port;
const issuer = `http://127.0.0.1:${actualPort}`;

const specClaims = process.env.ANCHOR_CLAIMS === 'spec';
/** The claims of the service's ID token for the test eID's specimen passport and `openid profile`. */
const SPEC_PROFILE_CLAIMS = {
  document_type: 'PASSPORT',
  issuing_country: 'UTO',
  document_number: 'L898902C3',
  date_of_expiry: '15.04.2034',
  facematch_level: 9,
  authentication_sources: ['SDK_NFC', 'SDK_FACESCAN'],
  authentication_result: 'pass',
  given_name: 'ANNA MARIA',
  family_name: 'ERIKSSON',
  primary_identifier: 'ERIKSSON',
  secondary_identifier: 'ANNA MARIA',
  nationality: 'UTO',
  birthdate: '12.08.1974',
  gender: 'FEMALE',
  name: 'ANNA MARIA ERIKSSON',
  place_of_birth: 'ZENITH',
  eid_scheme: 'test',
};

const configuration: Configuration = {
  adapter: store.factory as unknown as Configuration['adapter'],
  clients: ANCHOR_CLIENTS.map((c) => ({ ...c, redirect_uris: [ANCHOR_REDIRECT_URI], grant_types: ['authorization_code'], response_types: ['code'] })),
  jwks: { keys: await signingKeys() },
  cookies: { keys: ['anchor-cookie-key-0123456789abcdef0123456789'] },
  ...(specClaims
    ? {
        // ANCHOR_CLAIMS=spec: the ID token carries what the service's does for `openid profile` (spec 2.1), the same names
        // and values of the same size as the test eID's passport, so the engine does the same claims work.
        claims: { openid: ['sub'], profile: Object.keys(SPEC_PROFILE_CLAIMS) },
        conformIdTokenClaims: false,
        findAccount: (_ctx: unknown, sub: string) => ({ accountId: sub, claims: () => ({ sub, ...SPEC_PROFILE_CLAIMS }) }),
      }
    : {
        claims: { openid: ['sub'], profile: ['name', 'given_name', 'family_name', 'birthdate'] },
        findAccount: (_ctx: unknown, sub: string) => ({
          accountId: sub,
          claims: () => ({ sub, name: 'Test Person', given_name: 'Test', family_name: 'Person', birthdate: '1990-01-01' }),
        }),
      }),
  features: { devInteractions: { enabled: false }, userinfo: { enabled: true } },
  pkce: { required: () => true },
  ttl: { AuthorizationCode: 600, IdToken: 900, AccessToken: 900, Interaction: 1800, Session: 8 * 3600, Grant: 14 * 86400, RefreshToken: 14 * 86400 },
  interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  // ANCHOR_CONFIG=spec: the engine configured as the service configures it (anchor-spec-config.ts).
  // Loaded only then: it brings the service's configuration module (and what that imports) into the anchor's process.
  ...(process.env.ANCHOR_CONFIG === 'spec'
    ? (await import('./anchor-spec-config.js')).specConfiguration(ANCHOR_CLIENTS, ANCHOR_REDIRECT_URI, store.factory)
    : {}),
};
const provider = new Provider(issuer, configuration);
const engine = provider.callback();

const page = (res: ServerResponse, uid: string) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(
    `<!doctype html><title>Sign in</title><form method="post" action="/interaction/${uid}/login" data-person="test"><input type="hidden" name="person" value="test"><button>Sign in</button></form>`,
  );
};

/** The minimal interactions: the login page, its POST, and a consent granted on the spot. */
async function interaction(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  const match = /^\/interaction\/([^/?]+)(\/login)?/.exec(req.url ?? '');
  if (!match) return false;
  const details = await provider.interactionDetails(req, res);
  if (match[2] && req.method === 'POST') {
    for await (const _chunk of req); // the form body (nothing in it is needed)
    await provider.interactionFinished(req, res, { login: { accountId: 'anchor-person' } }, { mergeWithLastSubmission: false });
    return true;
  }
  if (details.prompt.name === 'login') {
    page(res, details.uid);
    return true;
  }
  // consent: grant what was asked, as the broker does for its merchants
  const grant = details.grantId
    ? await provider.Grant.find(details.grantId)
    : new provider.Grant({ accountId: details.session!.accountId, clientId: String(details.params.client_id) });
  grant!.addOIDCScope(String(details.params.scope));
  const grantId = await grant!.save();
  await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  return true;
}

listening.on('request', (req, res) => {
  interaction(req, res).then(
    (handled) => {
      if (!handled) void engine(req, res);
    },
    (err: unknown) => {
      res.writeHead(500).end(String(err));
    },
  );
});
process.stdout.write(`${JSON.stringify({ port: actualPort })}\n`);
process.on('SIGTERM', () => {
  listening.close(() => void store.close().finally(() => process.exit(0)));
  listening.closeAllConnections();
});
