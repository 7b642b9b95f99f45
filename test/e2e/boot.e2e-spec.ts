import { spawnSync } from 'node:child_process';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** Always on the embedded database, even in CI, so that a new user's `npm start` path stays proven. */
describe('the service on the embedded database', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ embedded: true, env: { ADMIN_API_TOKEN: undefined } });
  });
  afterAll(() => t?.close());

  it('runs on PGlite with migrations applied and answers /health', async () => {
    expect(t.config.database.kind).toBe('embedded');
    const res = await fetch(`${t.baseUrl}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', database: 'up' });
    const tables = await t.dataSource.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`);
    expect(tables.map((r: { table_name: string }) => r.table_name)).toEqual(
      expect.arrayContaining(['admin_tokens', 'audit_records', 'merchants', 'migrations']),
    );
  });

  it('keeps the embedded engine to 16 MB of shared buffers, not the 128 MB initdb wrote (start-up time and memory)', async () => {
    expect(await t.dataSource.query('SHOW shared_buffers')).toEqual([{ shared_buffers: '16MB' }]);
  });

  it('generates an admin token on the first start, stores only its hash, and it works', async () => {
    expect(t.initialAdminToken).toMatch(/^adm_/);
    const rows = await t.dataSource.query('SELECT * FROM admin_tokens');
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(t.initialAdminToken);
    const res = await fetch(`${t.baseUrl}/admin/v1/merchants`, { headers: { authorization: `Bearer ${t.initialAdminToken}` } });
    expect(res.status).toBe(200);
  });

  it('sends security headers and a request id', async () => {
    const res = await fetch(`${t.baseUrl}/health`, { headers: { 'x-request-id': 'support-case-12345' } });
    expect(res.headers.get('x-request-id')).toBe('support-case-12345');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(res.headers.get('x-powered-by')).toBeNull();
  });

  it('serves Swagger UI at /admin/docs describing every admin route', async () => {
    const page = await fetch(`${t.baseUrl}/admin/docs`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('swagger-ui');
    const doc = (await (await fetch(`${t.baseUrl}/admin/docs/openapi.json`)).json()) as any;
    const routes = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(routes).toEqual(
      expect.arrayContaining([
        'POST /admin/v1/merchants',
        'GET /admin/v1/merchants',
        'GET /admin/v1/merchants/{clientId}',
        'PATCH /admin/v1/merchants/{clientId}',
        'POST /admin/v1/merchants/{clientId}/secret',
        'POST /admin/v1/merchants/{clientId}/disable',
        'POST /admin/v1/merchants/{clientId}/enable',
        'POST /admin/v1/tokens',
        'GET /admin/v1/tokens',
        'DELETE /admin/v1/tokens/{id}',
        'GET /admin/v1/audit',
      ]),
    );
    expect(doc.components.securitySchemes['admin-api-token']).toMatchObject({ type: 'http', scheme: 'bearer' });
    const create = doc.paths['/admin/v1/merchants'].post;
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '403']));
    expect(doc.components.schemas.CreateMerchantDto.required).toEqual(expect.arrayContaining(['name', 'redirect_uris']));
  });

  it('answers unknown routes with the error object, not an HTML page', async () => {
    const res = await fetch(`${t.baseUrl}/nowhere`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: 'not_found' });
  });
});

describe('start-up with a bad environment', () => {
  it('stops with a message naming each bad variable', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: { PATH: process.env.PATH, PORT: 'eighty', APP_ENV: 'production', LOG_LEVEL: 'silent' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('Invalid configuration');
    expect(run.stderr).toContain('PORT:');
    expect(run.stdout).not.toContain('is up');
  });

  it('refuses production without explicit secrets, naming them', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: { PATH: process.env.PATH, APP_ENV: 'production', BASE_URL: 'https://broker.example' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    for (const name of ['DATA_ENCRYPTION_KEY', 'COOKIE_KEYS', 'DATABASE_URL']) expect(run.stderr).toContain(`${name}:`);
  });
});
