import { readFileSync } from 'node:fs';
import { startTestApp, type TestApp } from '../support/test-app.js';

const table = JSON.parse(readFileSync(new URL('../../libs/face/calibration/face-api-resnet128.json', import.meta.url), 'utf8')) as {
  validatedLevels: number[];
  thresholds: Record<string, number>;
};

/** Spec 2.2 levels stay honest: the page discovery names says which levels our data validates, from the running table. */
describe('service documentation', () => {
  let t: TestApp;
  let strict: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
    await strict?.close();
  });

  const text = (page: string) => page.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ');

  it('is what discovery names, and states the validated and the extrapolated levels of the running engine', async () => {
    const discovery = (await (await fetch(`${t.baseUrl}/oidc/.well-known/openid-configuration`)).json()) as { service_documentation: string };
    expect(discovery.service_documentation).toBe(`${t.baseUrl}/docs`);
    const res = await fetch(discovery.service_documentation);
    expect([res.status, res.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    const page = text(await res.text());
    const validated = table.validatedLevels;
    const extrapolated = [1, 2, 3, 4, 5, 6, 7, 8, 9].filter((l) => !validated.includes(l));
    expect(validated.length).toBeGreaterThan(0);
    expect(page).toContain(`Validated by our data: level ${validated.join(', ')}.`);
    expect(page).toContain(`Extrapolated: level ${extrapolated.join(', ')}.`);
    expect(page).toContain('face match level of at least 7');
    expect(page).toMatch(/that level is extrapolated: its false acceptance rate rests on a model/);
    expect(page).toContain('engine face-api-resnet128');
  });

  it('gives the same figures as JSON, one entry per level', async () => {
    const report = (await (await fetch(`${t.baseUrl}/docs/face-match-levels.json`)).json()) as {
      engine: string;
      levels: { level: number; status: string; threshold: number; targetFar: number }[];
      eidasHigh: { minLevel: number; status: string };
    };
    expect(report.engine).toBe('face-api-resnet128');
    expect(report.levels.map((l) => [l.level, l.status, l.threshold])).toEqual(
      [1, 2, 3, 4, 5, 6, 7, 8, 9].map((l) => [l, table.validatedLevels.includes(l) ? 'validated' : 'extrapolated', table.thresholds[String(l)]]),
    );
    expect(report.levels[6].targetFar).toBe(1 / 500_000);
    expect(report.eidasHigh).toEqual({ minLevel: 7, status: 'extrapolated' });
  });

  it('follows the configured eIDAS-high level (FACEMATCH_MIN_LEVEL_FOR_HIGH)', async () => {
    strict = await startTestApp({ env: { FACEMATCH_MIN_LEVEL_FOR_HIGH: '3' } });
    const page = text(await (await fetch(`${strict.baseUrl}/docs`)).text());
    expect(page).toContain('face match level of at least 3');
    expect(page).toContain('that level is validated.');
  });

  it('has an icon: /favicon.ico answers our SVG with its type and a day of caching, and /docs and Swagger UI link it', async () => {
    for (const path of ['/favicon.ico', '/its/assets/favicon.svg']) {
      const res = await fetch(`${t.baseUrl}${path}`);
      expect([path, res.status, res.headers.get('content-type'), res.headers.get('cache-control')]).toEqual([
        path,
        200,
        'image/svg+xml; charset=utf-8',
        'public, max-age=86400',
      ]);
      expect(await res.text()).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    }
    for (const path of ['/docs', '/admin/docs', '/admin/docs/', '/admin/docs/index.html']) {
      const html = await (await fetch(`${t.baseUrl}${path}`)).text();
      expect([path, html]).toEqual([path, expect.stringContaining('<link rel="icon" href="/its/assets/favicon.svg" type="image/svg+xml">')]);
      expect([path, html]).toEqual([path, expect.stringContaining('<meta name="viewport" content="width=device-width, initial-scale=1">')]);
    }
    // Swagger UI's page loads what Nest serves beside it.
    for (const asset of ['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'swagger-ui-init.js'])
      expect([asset, (await fetch(`${t.baseUrl}/admin/docs/${asset}`)).status]).toEqual([asset, 200]);
  });
});
