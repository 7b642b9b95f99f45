import { randomUUID } from 'node:crypto';
import * as client from 'openid-client';
import { adminClient } from '../support/admin-client.js';
import { duringHealthPolling } from '../support/health-probe.js';
import { mulberry32 } from '../support/seeded-random.js';
import { authorizationRequest, discover, loginWithTestEid, REDIRECT_URI } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { TestBrowser } from '../support/test-browser.js';

/**
 * Malformed requests against every route, with and without valid credentials: none may answer 5xx, and
 * the service must still work afterwards. Then every JSON route gets 100,000 unknown keys and lone
 * surrogates, one request at a time while /health/live is polled: each refused at once, the event loop
 * never held. Seeded, so a failure reproduces; the seed can be changed with FUZZ_SEED and the count with
 * FUZZ_REQUESTS to explore further.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 3000);
const CONCURRENCY = 6;


interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

describe(`fuzz: ${REQUESTS} malformed requests over every route (seed ${SEED})`, () => {
  let t: TestApp;
  let healthy: { client_id: string; client_secret: string };
  let target: { client_id: string; client_secret: string };
  let appSessionToken = '';
  let interactionUid = '';
  let interactionCookie = '';
  let config: client.Configuration;

  beforeAll(async () => {
    t = await startTestApp();
    const admin = adminClient(t.baseUrl, t.adminToken);
    // Two merchants: the fuzz may change or disable `target`; `healthy` proves the service still works.
    healthy = await admin.createMerchant({ name: 'Healthy', redirect_uris: [REDIRECT_URI] });
    target = await admin.createMerchant({
      name: 'Target',
      redirect_uris: [REDIRECT_URI, 'https://target.example/cb'],
      eid_schemes: ['document-verifier', 'test'],
      // A SAML relying party too, so the SAML front door and the SOAP artifact back-channel are reached past authentication.
      saml: { entity_id: 'https://target.example/sp', assertion_consumer_url: 'https://target.example/acs', artifact_receiver_url: 'https://target.example/art' },
    });
    config = await discover(`${t.baseUrl}/oidc`, target.client_id, target.client_secret);
    // A live interaction and a verifier app session, so the broker pages and the app API are reached past authentication.
    const browser = new TestBrowser(t.baseUrl);
    const first = await browser.get((await authorizationRequest(config, { login_hint: 'eid:document-verifier' })).url.toString());
    interactionUid = /\/its\/interaction\/([^/?]+)/.exec(first.location ?? '')?.[1] ?? '';
    interactionCookie = browser.cookieHeader(`${t.baseUrl}/its/interaction/${interactionUid}`);
    const page = await browser.follow(first);
    const link = /<a href="([^"]+)" data-action="open-app"[^>]*>/.exec(page.html)?.[1].replace(/&amp;/g, '&');
    const qrToken = link ? new URL(link).searchParams.get('session') : undefined;
    const opened = await fetch(`${t.baseUrl}/app/v1/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ qr_token: qrToken }) });
    appSessionToken = ((await opened.json()) as { session_token?: string }).session_token ?? '';
  });
  afterAll(() => t.close());

  it('answers no request with 5xx and stays healthy', async () => {
    expect(interactionUid).not.toBe('');
    expect(appSessionToken).not.toBe('');
    const random = mulberry32(SEED);
    const int = (n: number) => Math.floor(random() * n);
    const pick = <T>(items: readonly T[]): T => items[int(items.length)];
    const chance = (p: number) => random() < p;

    // ---- values -------------------------------------------------------------------------------------
    const CONTROL = ['\u0000', '\u0001', '\u0007', '\b', '\t', '\n', '\r', '\u001b', '\u007f', '\u0085'];
    // Lone surrogates reach JSON bodies as escapes (\udfff); forms and queries cannot carry them (rawEncode).
    const UNICODE = ['é', 'ß', '中文', '𝔘𝔫𝔦', '😀', '\u202e', 'a\u0301', '\ufeff', '\uffff', 'İ', '\u200b', '\ud800', '\udfff'];
    const TRICKY = ['', ' ', '%', '%zz', '%00', '%c0%80', '../../etc/passwd', '<script>', '"', "'", '\\', '{', '[]', 'null', 'true', '-1', '0', '1e309', 'NaN', '__proto__', 'constructor', 'Basic', 'Bearer '];
    const randomString = (max = 40): string => {
      let s = '';
      const len = int(max);
      for (let i = 0; i < len; i++) {
        const r = random();
        s += r < 0.1 ? pick(CONTROL) : r < 0.2 ? pick(UNICODE) : r < 0.25 ? pick(TRICKY) : String.fromCharCode(32 + int(95));
      }
      return s;
    };
    const huge = () => pick(['a', '%', '\u0000', 'é', '[', '{"a":']).repeat(pick([1_000, 10_000, 70_000, 300_000]));
    /** A NUL one decoding away: escaped in JSON, inside a JWT's claims, in Base64 of JSON. */
    const hiddenNul = (): string => {
      const json = JSON.stringify({ [pick(['iss', 'sub', 'state', 'bindingMessage', 'userinfo'])]: `${randomString(5)}\u0000` });
      const b64url = (text: string) => Buffer.from(text).toString('base64url');
      return pick([json, Buffer.from(json).toString('base64'), `${b64url('{"alg":"HS256"}')}.${b64url(json)}.${b64url(randomString(8))}`, `${b64url('{"alg":"none"}')}.${b64url(json)}.`]);
    };
    const value = (): string => {
      const r = random();
      if (r < 0.04) return hiddenNul();
      if (r < 0.12) return `${randomString(10)}\u0000${randomString(10)}`;
      if (r < 0.2) return huge().slice(0, pick([100, 5_000, 60_000]));
      if (r < 0.3) return pick(TRICKY);
      return randomString();
    };
    /** Percent-encodes any bytes, also invalid UTF-8, so the raw request carries exactly what we mean. */
    const rawEncode = (s: string) => (chance(0.1) ? s.replace(/[&=#\s]/g, encodeURIComponent) : encodeURIComponent(s.replace(/[\ud800-\udfff]/g, 'x')));
    const brokenEscape = () => pick(['%', '%z', '%c3', '%ff%fe', '%ed%a0%80', '%e2%82', '%00', '%0a', '%25%30%30']);
    const form = (params: [string, string][]) =>
      params.map(([k, v]) => `${rawEncode(k)}=${chance(0.08) ? brokenEscape() : rawEncode(v)}`).join(pick(['&', '&', '&', ';', '&&']));
    const jsonValue = (depth = 0): unknown => {
      const r = random();
      if (depth > 3 || r < 0.3) return value();
      if (r < 0.4) return pick([null, true, false, 0, -1, 1.5, 1e308, Number.MAX_SAFE_INTEGER + 2]);
      if (r < 0.55) return Array.from({ length: int(4) }, () => jsonValue(depth + 1));
      if (r < 0.65) return Object.fromEntries(Array.from({ length: int(4) }, () => [value(), jsonValue(depth + 1)]));
      return randomString();
    };
    const brokenJson = () => pick(['{', '{"a":', '[1,2', '{"a":1,}', "{'a':1}", 'nul', '"\\u00"', '{"a":"\\ud800"}', '[' .repeat(5_000), '{"__proto__":{"x":1}}', '\ufeff{}', '']);

    // ---- credentials --------------------------------------------------------------------------------
    const merchantBasic = () => basic(target.client_id, target.client_secret);
    const authorization = (): Record<string, string> => {
      const r = random();
      if (r < 0.25) return { authorization: merchantBasic() };
      if (r < 0.4) return { authorization: `Bearer ${t.adminToken}` };
      if (r < 0.5) return { authorization: `Bearer ${appSessionToken}` };
      if (r < 0.55) return { authorization: basic(value(), value()) };
      if (r < 0.6) return { authorization: `${pick(['Basic', 'Bearer', 'basic', 'bearer', 'Digest', ''])} ${randomString(30).replace(/[^\x20-\x7e]/g, '')}` };
      if (r < 0.63) return { authorization: `Basic ${Buffer.from(`${target.client_id}%00:${target.client_secret}`).toString('base64')}` };
      return {};
    };
    const contentType = (natural: string): Record<string, string> => {
      const r = random();
      if (r < 0.6) return { 'content-type': natural };
      if (r < 0.7) return {};
      return {
        'content-type': pick([
          'text/plain',
          'multipart/form-data; boundary=x',
          'multipart/form-data',
          'application/json',
          'application/x-www-form-urlencoded',
          'application/x-www-form-urlencoded; charset=utf-16',
          'application/x-www-form-urlencoded; charset=nonsense',
          'application/json; charset=latin1',
          'application/xml',
          'image/jpeg',
          '*/*',
          ';;;',
        ]),
      };
    };

    // ---- routes -------------------------------------------------------------------------------------
    const authParams = (): [string, string][] => [
      ['client_id', target.client_id],
      ['redirect_uri', REDIRECT_URI],
      ['scope', 'openid profile'],
      ['response_type', 'code'],
      ['state', 'st'],
      ['nonce', 'n'],
      ['code_challenge', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'],
      ['code_challenge_method', 'S256'],
    ];
    const EXTRA_AUTH = ['ui_locale', 'ui_locales', 'display', 'prompt', 'max_age', 'id_token_hint', 'login_hint', 'acr_values', 'binding_message', 'svc_context', 'request', 'request_uri', 'claims', 'target'];
    const tokenParams = (): [string, string][] =>
      pick([
        [['grant_type', 'authorization_code'], ['code', value()], ['redirect_uri', REDIRECT_URI], ['code_verifier', value()]],
        [['grant_type', 'refresh_token'], ['refresh_token', value()]],
        [['grant_type', pick(['client_credentials', 'password', 'urn:ietf:params:oauth:grant-type:device_code', 'urn:openid:params:grant-type:ciba', value()])]],
        [['grant_type', 'authorization_code'], ['code', value()], ['client_id', target.client_id], ['client_secret', value()]],
        [['grant_type', 'authorization_code'], ['code', 'x'], ['client_assertion_type', 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer'], ['client_assertion', pick([value(), `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify({ iss: value(), sub: value(), aud: value() })).toString('base64url')}.x`])]],
      ] as [string, string][][]);
    /** With mid, or as Shibboleth's Shib1 request names the merchant: by providerId alone, with time. */
    const samlParams = (): [string, string][] => {
      const byMid = chance(0.6);
      return [
        ...(byMid ? [['mid', target.client_id] as [string, string]] : [['time', value()] as [string, string]]),
        ['TARGET', value()],
        ...(chance(0.5) ? [['shire', pick(['https://target.example/acs', 'https://target.example/art', value()])] as [string, string]] : []),
        ...(!byMid || chance(0.2) ? [['providerId', pick(['https://target.example/sp', value()])] as [string, string]] : []),
      ];
    };
    /** A SOAP artifact request, as is or broken: a random artifact, a cut, a DTD, a changed name, garbage. */
    const soapBody = (): string => {
      const soap = `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><samlp:Request xmlns:samlp="urn:oasis:names:tc:SAML:1.0:protocol" MajorVersion="1" MinorVersion="1" RequestID="_${int(1e9)}" IssueInstant="2026-01-01T00:00:00Z"><samlp:AssertionArtifact>${pick([value(), Buffer.alloc(42).toString('base64')])}</samlp:AssertionArtifact></samlp:Request></soap:Body></soap:Envelope>`;
      const r = random();
      if (r < 0.3) return soap;
      if (r < 0.45) return soap.slice(0, int(soap.length));
      if (r < 0.55) return `<!DOCTYPE x [<!ENTITY e "${randomString(10)}">]>${soap.replace('</samlp:AssertionArtifact>', '&e;</samlp:AssertionArtifact>')}`;
      if (r < 0.7) return soap.replace(pick(['Envelope', 'Body', 'Request', 'AssertionArtifact', 'MajorVersion', 'RequestID', 'soap:', 'samlp:']), value());
      if (r < 0.85) return soap.replace(/>/, `>${value()}`);
      return pick([value(), huge(), brokenJson()]);
    };
    const merchantPath = () => pick([target.client_id, value(), 'm_' + 'a'.repeat(16)]);

    /** Each route: method, path and the parameters a well-formed request would carry. */
    const ROUTES: { method: string; path: () => string; params?: () => [string, string][]; json?: () => unknown; in: 'query' | 'form' | 'json' | 'xml' }[] = [
      { method: 'GET', path: () => '/its/index.html', params: authParams, in: 'query' },
      { method: 'POST', path: () => '/its/index.html', params: authParams, in: 'form' },
      // The resume path with the live uid would end the interaction the broker routes below rely on.
      { method: 'GET', path: () => `/its/index.html/${pick([value(), 'A'.repeat(43)])}`, in: 'query' },
      { method: 'POST', path: () => '/oidc/token', params: tokenParams, in: 'form' },
      { method: 'POST', path: () => '/oidc/token', params: tokenParams, in: 'query' },
      { method: 'DELETE', path: () => '/oidc/token', params: () => [['token', value()]], in: pick(['query', 'form']) as 'query' },
      { method: 'POST', path: () => '/oidc/token/revocation', params: () => [['token', value()], ['token_type_hint', pick(['access_token', 'refresh_token', value()])]], in: 'form' },
      { method: 'POST', path: () => '/oidc/token/introspection', params: () => [['token', value()]], in: 'form' },
      { method: 'POST', path: () => '/oidc/par', params: authParams, in: 'form' },
      { method: 'GET', path: () => '/oidc/userinfo', params: () => [['access_token', value()]], in: 'query' },
      { method: 'POST', path: () => '/oidc/userinfo', params: () => [['access_token', value()]], in: 'form' },
      { method: 'GET', path: () => '/oidc/jwks', in: 'query' },
      { method: 'GET', path: () => '/oidc/.well-known/openid-configuration', in: 'query' },
      { method: 'POST', path: () => '/oidc/ciba.html', params: () => [['scope', 'openid'], ['login_hint', value()], ['binding_message', value()], ['requested_expiry', value()]], in: 'query' },
      { method: 'POST', path: () => '/oidc/session/end', params: () => [['id_token_hint', value()]], in: 'form' },
      { method: 'GET', path: () => '/its/index.html', params: samlParams, in: 'query' },
      { method: 'POST', path: () => '/saml/artifact', in: 'xml' },
      { method: 'GET', path: () => '/saml/metadata', in: 'query' },
      { method: 'GET', path: () => `/its/interaction/${pick([interactionUid, value()])}`, in: 'query' },
      { method: 'GET', path: () => `/its/interaction/${pick([interactionUid, value()])}/eid/${pick(['test', 'document-verifier', value()])}`, in: 'query' },
      { method: 'POST', path: () => `/its/interaction/${pick([interactionUid, value()])}/eid/${pick(['test', 'document-verifier', value()])}/start`, params: () => [['_csrf', value()]], in: 'form' },
      { method: 'POST', path: () => `/its/interaction/${pick([interactionUid, value()])}/eid/${pick(['test', 'document-verifier', value()])}`, params: () => [['_csrf', value()], ['person', value()]], in: 'form' },
      { method: 'POST', path: () => `/its/interaction/${pick([interactionUid, value()])}/cancel`, params: () => [['_csrf', value()]], in: 'form' },
      { method: 'GET', path: () => `/its/interaction/${pick([interactionUid, value()])}/verifier-status`, in: 'query' },
      { method: 'GET', path: () => '/its/eid/callback', params: () => [['state', value()], ['code', value()], ['error', pick(['access_denied', value()])], ['iss', value()]], in: 'query' },
      { method: 'GET', path: () => `/its/interaction/${pick([interactionUid, value()])}/eid/${pick(['test', 'fuzz-up', value()])}/return`, params: () => [['state', value()], ['code', value()]], in: 'query' },
      { method: 'GET', path: () => '/its/assets/wait-for-phone.js', in: 'query' },
      { method: 'GET', path: () => '/health', in: 'query' },
      { method: 'GET', path: () => '/admin/docs/openapi.json', in: 'query' },
      { method: 'POST', path: () => '/admin/v1/merchants', json: () => mutateJson({ name: 'Fuzz shop', redirect_uris: ['https://fuzz.example/cb'], scope: 'openid profile', eid_schemes: ['test'], psd2: false, token_endpoint_auth_method: 'client_secret_basic', jwks_uri: 'https://fuzz.example/jwks' }), in: 'json' },
      { method: 'GET', path: () => '/admin/v1/merchants', params: () => [['page', value()], ['per_page', value()]], in: 'query' },
      { method: 'GET', path: () => `/admin/v1/merchants/${merchantPath()}`, in: 'query' },
      { method: 'PATCH', path: () => `/admin/v1/merchants/${merchantPath()}`, json: () => mutateJson({ name: 'Renamed', scope: 'openid profile', eid_schemes: ['test', 'document-verifier'], backchannel_token_delivery_mode: 'poll' }), in: 'json' },
      { method: 'POST', path: () => `/admin/v1/merchants/${merchantPath()}/${pick(['secret', 'disable', 'enable'])}`, in: 'json' },
      { method: 'POST', path: () => '/admin/v1/tokens', json: () => mutateJson({ role: 'support', label: 'fuzz' }), in: 'json' },
      { method: 'GET', path: () => '/admin/v1/tokens', in: 'query' },
      { method: 'DELETE', path: () => `/admin/v1/tokens/${value()}`, in: 'query' },
      { method: 'GET', path: () => '/admin/v1/audit', params: () => [['target_type', pick(['merchant', value()])], ['target_id', value()], ['page', value()]], in: 'query' },
      { method: 'GET', path: () => '/admin/v1/signing-keys', in: 'query' },
      { method: 'POST', path: () => '/admin/v1/eid-schemes', json: () => mutateJson({ id: pick(['fuzz-up', 'fuzz-up-2']), labels: { en_GB: 'Fuzz ID' }, environment: 'customer-test', issuer: 'https://fuzz.example/oidc', client_id: 'broker', client_secret: 's', claim_mappers: [{ type: 'regex', from: 'nin', to: 'personal_number', pattern: '^(\\d+)$', replacement: '$1' }] }), in: 'json' },
      { method: 'GET', path: () => `/admin/v1/eid-schemes${pick(['', '/test', '/fuzz-up', `/${value()}`])}`, in: 'query' },
      { method: 'PATCH', path: () => `/admin/v1/eid-schemes/${pick(['fuzz-up', 'test', value()])}`, json: () => mutateJson({ labels: { nb_NO: 'Fuzz' }, acr_map: { 'urn:x': 'urn:svc:cert:eidas:high' }, scope: 'openid profile' }), in: 'json' },
      { method: 'POST', path: () => `/admin/v1/eid-schemes/${pick(['fuzz-up', value()])}/${pick(['disable', 'enable'])}`, in: 'json' },
      { method: 'POST', path: () => '/app/v1/sessions', json: () => mutateJson({ qr_token: 'k2VdQ8sLx0pR4mT7yN1bC6hF' }), in: 'json' },
      { method: 'GET', path: () => '/app/v1/session', in: 'query' },
      { method: 'POST', path: () => '/app/v1/session/aa-challenge', json: () => jsonValue(), in: 'json' },
      { method: 'POST', path: () => '/app/v1/session/chip', json: () => mutateJson({ sod: 'd4IGGDCCBhQ=', data_groups: { '1': 'YV9fXw==', '2': 'dYIGUQ==' }, active_authentication: { signature: 'AAAA' } }), in: 'json' },
      { method: 'POST', path: () => '/app/v1/session/liveness-challenge', json: () => jsonValue(), in: 'json' },
      { method: 'POST', path: () => '/app/v1/session/face', json: () => mutateJson({ challenge_id: '7d3b1c2a-5e4f-4a6b-8c9d-0e1f2a3b4c5d', frames: [{ pose: 'center', image: '/9j/4AAQ', captured_at: new Date().toISOString() }] }), in: 'json' },
      { method: 'GET', path: () => '/app/v1/session/outcome', in: 'query' },
      { method: 'POST', path: () => '/app/v1/session/cancel', json: () => jsonValue(), in: 'json' },
      { method: 'POST', path: () => '/app/v1/session/ca-challenge', json: () => mutateJson({ dg14: 'bnsxeTBmBgkEAH8ABwICAQIwWTAT', key_id: 1 }), in: 'json' },
      // No wait_seconds: a valid one long-polls up to 25 s; mutations replace or add other keys only by chance.
      { method: 'POST', path: () => '/app/v1/ciba/requests/pending', json: () => mutateJson({ app_id: 'fuzz-app', app_secret: 'k3J9xQ2mV8pL5tR7wY1zA4cE6gH0jN2b', after: '0' }), in: 'json' },
      { method: 'POST', path: () => `/app/v1/ciba/requests/${pick([randomUUID(), value()])}/${pick(['status', 'approve', 'complete', 'decline'])}`, json: () => mutateJson({ app_id: 'fuzz-app', app_secret: 'k3J9xQ2mV8pL5tR7wY1zA4cE6gH0jN2b', user_code: '4711' }), in: 'json' },
      { method: 'PUT', path: () => `/admin/v1/merchants/${merchantPath()}/ciba-apps/${pick(['fuzz-app', value()])}/status`, json: () => mutateJson({ status: pick(['active', 'suspended']) }), in: 'json' },
      { method: 'POST', path: () => '/admin/v1/signing-keys/rotate', json: () => jsonValue(), in: 'json' },
      { method: 'DELETE', path: () => '/oidc/token', json: () => mutateJson({ token: 'x' }), in: 'json' },
      { method: 'POST', path: () => '/auth_files/fetch.html', json: () => mutateJson({ params: { type: 'application/pdf', locale: 'en_GB' }, addendum: { order: '4711' } }), in: 'json' },
      { method: 'POST', path: () => '/app/v1/specimen-documents', json: () => mutateJson({ person: 'uto-passport', face_image: Buffer.from([0xff, 0xd8, 0xff, 0xe0, ...Buffer.from(randomString(20))]).toString('base64') }), in: 'json' },
    ];

    /** A well-formed JSON body, as is or with one or two fields replaced, dropped, nulled or added. */
    const mutateJson = (valid: Record<string, unknown>): unknown => {
      if (chance(0.25)) return valid;
      const out: Record<string, unknown> = { ...valid };
      for (let i = 1 + int(2); i > 0; i--) {
        const keys = Object.keys(out);
        const key = keys.length ? pick(keys) : 'x';
        const r = random();
        if (r < 0.45) out[key] = jsonValue();
        else if (r < 0.6) delete out[key];
        else if (r < 0.75) out[key] = null;
        else if (r < 0.9) out[value()] = jsonValue();
        else return jsonValue();
      }
      return out;
    };

    /** Replace, drop, repeat or add one parameter, or mangle a name. */
    const mutateParams = (params: [string, string][]): [string, string][] => {
      const out = params.map(([k, v]) => [k, v] as [string, string]);
      const times = 1 + int(3);
      for (let i = 0; i < times; i++) {
        const r = random();
        const at = int(Math.max(out.length, 1));
        if (r < 0.35 && out.length) out[at][1] = value();
        else if (r < 0.5 && out.length) out.splice(at, 1);
        else if (r < 0.65 && out.length) out.push([out[at][0], value()]);
        else if (r < 0.8) out.push([pick(EXTRA_AUTH), value()]);
        else if (out.length) out[at][0] = chance(0.5) ? value() : `${out[at][0]}[]`;
      }
      return out;
    };

    const build = (): FuzzRequest => {
      const route = pick(ROUTES);
      let path = route.path();
      path = path.split('/').map((seg) => (seg ? rawEncode(seg) : seg)).join('/');
      if (chance(0.03)) path += `/${'a'.repeat(pick([300, 5_000, 20_000]))}`;
      if (chance(0.03)) path = path.replace(/\/[^/]*$/, `/${brokenEscape()}`);
      const method = chance(0.08) ? pick(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD']) : route.method;
      const headers = { ...authorization() };
      let body: string | undefined;
      const params = route.params ? mutateParams(route.params()) : chance(0.3) ? [[value(), value()] as [string, string]] : [];
      if (route.in === 'query' || chance(0.15)) {
        if (params.length) path += `?${form(params)}`;
      }
      if (route.in === 'form' && method !== 'GET' && method !== 'HEAD') {
        Object.assign(headers, contentType('application/x-www-form-urlencoded'));
        body = chance(0.05) ? brokenJson() : form(params);
      } else if (route.in === 'xml' && method !== 'GET' && method !== 'HEAD') {
        Object.assign(headers, contentType('text/xml; charset=utf-8'));
        body = soapBody();
      } else if (route.in === 'json' && method !== 'GET' && method !== 'HEAD') {
        Object.assign(headers, contentType('application/json'));
        body = chance(0.15) ? brokenJson() : JSON.stringify(route.json ? route.json() : jsonValue());
        if (chance(0.05)) body = body.replace(/"([^"]*)"/, '"$1\\u0000"');
      }
      if (method === 'GET' || method === 'HEAD') body = undefined; // fetch cannot send one
      // The broker pages' own cookies, so their handlers are reached past the interaction lookup.
      if (path.startsWith('/its/') && chance(0.7)) headers.cookie = interactionCookie;
      else if (chance(0.05)) headers.cookie = `_interaction=${value().replace(/[^\x21-\x7e]/g, '')}; _session=${interactionUid}`;
      if (chance(0.05)) headers.accept = pick(['text/html', 'application/json', '*/*', 'image/png']);
      return { method, path, headers, body };
    };

    const describeRequest = (r: FuzzRequest) =>
      `${r.method} ${r.path.slice(0, 160)}${r.path.length > 160 ? `…(${r.path.length})` : ''} ${JSON.stringify(r.headers).slice(0, 160)} ${r.body === undefined ? '' : JSON.stringify(r.body.slice(0, 160))}${(r.body?.length ?? 0) > 160 ? `…(${r.body!.length})` : ''}`;

    const requests = Array.from({ length: REQUESTS }, build);
    const failures: string[] = [];
    const accepted: string[] = [];
    const started = Date.now();
    let next = 0;
    const worker = async () => {
      while (next < requests.length) {
        const r = requests[next++];
        let status: number | string;
        try {
          const res = await fetch(`${t.baseUrl}${r.path}`, { method: r.method, headers: r.headers, body: r.body, redirect: 'manual', signal: AbortSignal.timeout(15_000) });
          await res.arrayBuffer();
          status = res.status;
        } catch (e) {
          status = `no answer (${(e as Error).message}${(e as Error).cause ? `: ${String((e as Error).cause)}` : ''})`;
        }
        if (typeof status !== 'number' || status >= 500) failures.push(`${status} ← ${describeRequest(r)}`);
        else if (status < 300) accepted.push(`${r.method} ${r.path.split('?')[0]}`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const seconds = ((Date.now() - started) / 1000).toFixed(1);

    expect({ requests: requests.length, seconds, failures: failures.slice(0, 20), failureCount: failures.length }).toEqual({
      requests: REQUESTS,
      seconds,
      failures: [],
      failureCount: 0,
    });

    // Every JSON route, with its natural credentials: 100,000 unknown keys (1.2 MB), then lone surrogates in a value
    // and a key. One at a time, while /health/live is polled: the service must refuse each at once, never blocking.
    const bigBody = JSON.stringify(Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`unknown_${i}`, i])));
    const credentialsFor = (path: string): Record<string, string> =>
      path.startsWith('/admin/') ? { authorization: `Bearer ${t.adminToken}` } : path.startsWith('/app/v1/session/') ? { authorization: `Bearer ${appSessionToken}` } : {};
    const bounded: string[] = [];
    const jsonRoutes = ROUTES.filter((r) => r.in === 'json');
    const bigStarted = Date.now();
    for (const route of jsonRoutes) {
      const path = route.path().split('/').map((seg) => (seg ? rawEncode(seg) : seg)).join('/');
      const sample = route.json?.();
      const lone = JSON.stringify({ ...(sample && typeof sample === 'object' && !Array.isArray(sample) ? sample : {}), note: `a\udfff${randomString(5)}`, ['\ud800']: 1 });
      for (const [kind, body] of [['100,000 keys', bigBody], ['lone surrogates', lone]]) {
        const sent = performance.now();
        const { result: status, longestHealthGapMs } = await duringHealthPolling(t.baseUrl, async () => {
          const res = await fetch(`${t.baseUrl}${path}`, { method: route.method, headers: { 'content-type': 'application/json', ...credentialsFor(path) }, body, signal: AbortSignal.timeout(15_000) });
          await res.arrayBuffer();
          return res.status;
        }).catch((e: Error) => ({ result: `no answer (${e.message})`, longestHealthGapMs: Infinity }));
        const ms = performance.now() - sent;
        // Before the bounds a body of keys took 10-14 s here, /health/live waiting as long; 2 s is generous on a loaded machine.
        const expected = kind === 'lone surrogates' ? status === 400 : status === 400 || status === 413;
        if (!expected || ms > 2_000 || longestHealthGapMs > 2_000) bounded.push(`${route.method} ${path.slice(0, 80)} (${kind}): ${status} in ${ms.toFixed(0)} ms, /health/live waited up to ${longestHealthGapMs.toFixed(0)} ms`);
      }
    }
    expect(bounded).toEqual([]);
    const bigSeconds = ((Date.now() - bigStarted) / 1000).toFixed(1);

    // The fuzz reached past authentication and validation in every area, not only the doors.
    const areas = ['/admin/v1/', '/app/v1/session', '/its/interaction/', '/oidc/'];
    expect(areas.filter((area) => !accepted.some((a) => a.includes(area)))).toEqual([]);
    // FUZZ_REPORT=1 prints the run's figures; the suite stays quiet otherwise.
    if (process.env.FUZZ_REPORT) console.log(`fuzz: ${requests.length} requests in ${seconds} s, none 5xx, ${accepted.length} accepted (2xx); each of ${jsonRoutes.length} JSON routes refused 100,000 keys and lone surrogates at once (${bigSeconds} s)`);

    // Still healthy: /health answers 200 and a normal login of an untouched merchant completes.
    expect((await fetch(`${t.baseUrl}/health`)).status).toBe(200);
    const healthyConfig = await discover(`${t.baseUrl}/oidc`, healthy.client_id, healthy.client_secret);
    const req = await authorizationRequest(healthyConfig);
    const { callback } = await loginWithTestEid(t.baseUrl, req.url);
    const tokens = await client.authorizationCodeGrant(healthyConfig, callback, { pkceCodeVerifier: req.verifier, expectedState: req.state, expectedNonce: req.nonce });
    expect(tokens.claims()?.sub).toBeTruthy();
    // 10-16 s alone on this 2-core machine for the 3000 requests, 0.5-0.7 s for the 42 big bodies, 25-31 s for the
    // whole file (55 s under .ci/run beside another jest worker before the big bodies were added); the timeout leaves
    // room for a busier CI machine. Before the bounds each body of keys held the service 10-14 s.
  }, 120_000);
});
