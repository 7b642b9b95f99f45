import { createHash, randomBytes, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import * as client from 'openid-client';
import { adminClient } from '../support/admin-client.js';
import { authorizationRequest, discover, loginWithTestEid, REDIRECT_URI } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { PENNY, specimenDocumentDir, verifierLogin } from '../support/verifier-flow.js';
import { freePort } from '../support/free-port.js';
import { CertificateRevocationList, DocumentCertificate, loadMasterList } from '@identity-broker/icao9303';
import { PadesSignerService } from '../../src/auth-files/signing/pades-signer.service.js';
import { SamlKeysService } from '../../src/saml/keys/saml-keys.service.js';
import { SpecimenAuthorityService } from '../../src/schemes/document-verifier/specimen/specimen-authority.service.js';

const TOKEN = randomBytes(32).toString('base64url');

/** The value of one series (`name{labels}`), or undefined when the exposition does not carry it. */
function series(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[3]);
  }
  return undefined;
}

const routeLabels = (text: string) => [...new Set([...text.matchAll(/^http_request_duration_seconds_count\{[^}]*route="([^"]*)"/gm)].map((m) => m[1]))];

describe('/metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  let config: client.Configuration;
  let verifierConfig: client.Configuration;
  const scrape = (authorization?: string) => fetch(`${t.baseUrl}/metrics`, { headers: authorization ? { authorization } : {} });

  beforeAll(async () => {
    t = await startTestApp({ env: { METRICS_TOKEN: TOKEN } });
    const admin = adminClient(t.baseUrl, t.adminToken);
    const m = await admin.createMerchant({ name: 'Metrics shop', redirect_uris: [REDIRECT_URI] });
    config = await discover(`${t.baseUrl}/oidc`, m.client_id, m.client_secret);
    const v = await admin.createMerchant({ name: 'Verifier shop', redirect_uris: [REDIRECT_URI], eid_schemes: ['document-verifier'] });
    verifierConfig = await discover(`${t.baseUrl}/oidc`, v.client_id, v.client_secret);
  });
  afterAll(() => t?.close(), 120_000);

  it('refuses a scrape without the token, or with another one, with 401 and a Bearer challenge', async () => {
    for (const authorization of [undefined, `Bearer ${TOKEN.slice(1)}x`, `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}`, TOKEN]) {
      const res = await scrape(authorization);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(await res.json()).toMatchObject({ error: 'unauthorized' });
    }
  });

  it('carries the login series by scheme, engine events and route templates after a login; no id or code in a label', async () => {
    const req = await authorizationRequest(config);
    const { callback } = await loginWithTestEid(t.baseUrl, req.url);
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: req.verifier,
      expectedState: req.state,
      expectedNonce: req.nonce,
    });
    await client.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub);

    const res = await scrape(`Bearer ${TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(series(text, 'broker_logins_started_total', { scheme: 'test' })).toBe(1);
    expect(series(text, 'broker_logins_completed_total', { scheme: 'test', outcome: 'success' })).toBe(1);
    expect(series(text, 'broker_oidc_events_total', { event: 'grant.success' })).toBe(1);
    expect(series(text, 'broker_oidc_events_total', { event: 'authorization.success' })).toBe(1);
    expect(series(text, 'http_request_duration_seconds_count', { method: 'POST', route: '/oidc/token', status: '200' })).toBe(1);
    expect(series(text, 'http_request_duration_seconds_count', { method: 'GET', route: '/its/index.html', status: '303' })).toBeGreaterThanOrEqual(1);
    expect(series(text, 'http_request_duration_seconds_bucket', { method: 'POST', route: '/oidc/token', status: '200', le: '+Inf' })).toBe(1);
    expect(series(text, 'broker_db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
    expect(series(text, 'broker_ciba_outbox_depth', { state: 'pending' })).toBe(0);
    expect(series(text, 'broker_ready')).toBe(0); // the face models were never warmed in this test app
    // Why not ready, check by check: the database answers, the face models are what is missing.
    expect(series(text, 'broker_readiness_check', { check: 'database' })).toBe(1);
    expect(series(text, 'broker_readiness_check', { check: 'migrations' })).toBe(1);
    expect(series(text, 'broker_readiness_check', { check: 'face_models' })).toBe(0);
    expect(series(text, 'broker_readiness_check', { check: 'redis' })).toBeUndefined(); // no REDIS_URL: not a check
    expect(series(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(series(text, 'broker_redis_connected')).toBeUndefined(); // no REDIS_URL

    // Route labels are templates: the interaction's id, the code and the state never appear in the exposition.
    const routes = routeLabels(text);
    expect(routes).toEqual(expect.arrayContaining(['/its/index.html', '/its/interaction/:uid', '/oidc/token', '/oidc/userinfo']));
    for (const route of routes) expect(route).toMatch(/^(unmatched|(\/([a-z0-9_.-]+|:[a-zA-Z]+|\*|\.well-known))+)$/);
    expect(text).not.toMatch(/\/its\/interaction\/(?!:uid)[^/"?]+/);
    expect(text).not.toContain(callback.searchParams.get('code')!);
    expect(text).not.toContain(req.state);
  }, 60_000);

  it('counts a document verification: outcome, result_explanation, face work time and queue', async () => {
    const documentDir = await specimenDocumentDir(t.baseUrl);
    const { outcome } = await verifierLogin(t.baseUrl, verifierConfig, { documentDir, person: PENNY });
    expect(outcome.authentication_result).toBe('fail');
    const text = await (await scrape(`Bearer ${TOKEN}`)).text();
    expect(series(text, 'broker_verifications_total', { result: 'fail' })).toBe(1);
    for (const explanation of outcome.result_explanation ?? []) expect(series(text, 'broker_verification_explanations_total', { explanation })).toBe(1);
    expect(series(text, 'broker_verification_explanations_total', { explanation: 'STATUS_BAD_FACEMATCH' })).toBe(1);
    expect(series(text, 'broker_logins_completed_total', { scheme: 'document-verifier', outcome: 'success' })).toBe(1);
    expect(series(text, 'broker_face_work_seconds_count', { phase: 'run' })).toBe(1);
    expect(series(text, 'broker_face_work_seconds_count', { phase: 'wait' })).toBe(1);
    expect(series(text, 'broker_face_queue_depth')).toBe(0);
    expect(series(text, 'broker_face_work_running')).toBe(0);
    expect(routeLabels(text).filter((r) => r.startsWith('/app/v1/'))).toEqual(expect.arrayContaining(['/app/v1/sessions', '/app/v1/session/face']));
  }, 180_000);
});

describe('/metrics: certificate, CSCA and CRL expiry', () => {
  const fixture = (name: string) => resolve('test/fixtures/icao/masterlists', name);
  const ML = fixture('DE_ML_2026-05-28-08-28-45.ml');
  const ML_ANCHOR = fixture('DE_ROOT_CA_CSCA07.cer');
  const CRL = fixture('COL.crl');
  const unix = (d: Date | string) => Math.floor(new Date(d).getTime() / 1000);
  const prefix = (der: Buffer) => createHash('sha256').update(der).digest('hex').slice(0, 16);
  const country = (c: DocumentCertificate) => /(?:^|, )C=([^,]+)/.exec(c.subject)![1].toUpperCase();
  let t: TestApp;
  let text: string;

  beforeAll(async () => {
    t = await startTestApp({ env: { METRICS_TOKEN: TOKEN, TRUST_MASTERLISTS: ML, TRUST_MASTERLIST_ANCHORS: ML_ANCHOR, TRUST_CRLS: CRL } });
    // A scrape waits a bounded time for each source (the trust store's first build, the generated PKIs): the first
    // may leave some out while they load, a later one has them all.
    const complete = (body: string) =>
      body.includes('broker_csca_not_after_seconds{') &&
      body.includes('purpose="credential_issuer_anchor"') &&
      body.includes('broker_crl_next_update_seconds{');
    for (const deadline = Date.now() + 60_000; !complete(text ?? '') && Date.now() < deadline; await new Promise((r) => setTimeout(r, 250)))
      text = await (await fetch(`${t.baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
  }, 120_000);
  afterAll(() => t?.close());

  it("serves the SAML and PAdES signing certificates' notAfter, named by subject and fingerprint", async () => {
    const saml = new X509Certificate(await t.app.get(SamlKeysService).certificatePem());
    const labels = { purpose: 'saml_signing', subject: saml.subject.replace(/\n/g, ', '), sha256: prefix(saml.raw) };
    expect(series(text, 'broker_certificate_not_after_seconds', labels)).toBe(unix(saml.validTo));
    const pades = new X509Certificate((await t.app.get(PadesSignerService).current())!.chain[0]);
    expect(series(text, 'broker_certificate_not_after_seconds', { purpose: 'pades_signing', sha256: prefix(pades.raw) })).toBe(unix(pades.validTo));
    // customer-test's generated wallet and credential issuer PKI, read the same way
    for (const purpose of ['wallet_request_signing', 'wallet_pid_anchor', 'wallet_mdl_anchor', 'credential_issuer_signing', 'credential_issuer_anchor'])
      expect(series(text, 'broker_certificate_not_after_seconds', { purpose })).toBeGreaterThan(Date.now() / 1000);
  });

  it("serves each country's newest trusted CSCA (master list and specimen) and the CRL's nextUpdate", async () => {
    const listed = loadMasterList(new Uint8Array(readFileSync(ML)), {
      anchors: [DocumentCertificate.fromDer(new Uint8Array(readFileSync(ML_ANCHOR)))],
    }).certificates;
    const specimen = (await t.app.get(SpecimenAuthorityService).get()).csca.certificate;
    const newest = new Map<string, DocumentCertificate>();
    for (const c of [...listed, specimen]) if (!newest.has(country(c)) || c.notAfter > newest.get(country(c))!.notAfter) newest.set(country(c), c);
    const served = [...text.matchAll(/^broker_csca_not_after_seconds\{[^}]*country="([^"]+)"/gm)].map((m) => m[1]);
    // One series per country, not per certificate: the master list holds hundreds
    expect(served.sort()).toEqual([...newest.keys()].sort());
    expect(listed.length).toBeGreaterThan(served.length * 2);
    const skiOf = (c: DocumentCertificate) => Buffer.from(c.subjectKeyIdentifier!).toString('hex').slice(0, 16);
    for (const c of [specimen, newest.get('DE')!])
      expect(series(text, 'broker_csca_not_after_seconds', { country: country(c), key_id: skiOf(c) })).toBe(unix(c.notAfter));

    const crl = CertificateRevocationList.fromDer(new Uint8Array(readFileSync(CRL)));
    const signer = listed.find((c) => c.subjectDerEquals(crl.issuerDer) && crl.verifiedBy(c))!;
    expect(series(text, 'broker_crl_next_update_seconds', { country: 'CO', key_id: skiOf(signer) })).toBe(unix(crl.nextUpdate!));
  });
});

describe('/metrics without METRICS_TOKEN', () => {
  let t: TestApp;
  afterAll(() => t?.close());

  it('answers 404 on the service port, as for any unknown route', async () => {
    t = await startTestApp();
    const res = await fetch(`${t.baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: 'not_found', error_description: 'Cannot GET /metrics' });
  });
});

describe('METRICS_PORT (a separate listener) with Redis configured', () => {
  let t: TestApp;
  let port: number;
  afterAll(() => t?.close());

  it('serves /metrics and the probes on that port only; reports the Redis connection', async () => {
    port = await freePort();
    t = await startTestApp({ env: { METRICS_PORT: String(port), REDIS_URL: 'redis://127.0.0.1:6379' } });
    const ops = `http://127.0.0.1:${port}`;
    const metrics = await fetch(`${ops}/metrics`);
    expect(metrics.status).toBe(200);
    const text = await metrics.text();
    expect(series(text, 'broker_redis_connected')).toBe(1);
    expect((await fetch(`${ops}/health/live`)).status).toBe(200);
    expect((await fetch(`${ops}/health/ready`)).status).toBe(503);
    expect((await fetch(`${ops}/admin/v1/merchants`)).status).toBe(404);
    // Not on the service's port: no token is configured there.
    expect((await fetch(`${t.baseUrl}/metrics`)).status).toBe(404);
  });
});
