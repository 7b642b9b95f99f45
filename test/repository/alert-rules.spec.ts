import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { describeWithPackages } from '../support/peer-process.js';

const DIR = 'deploy/prometheus';
const rules = readFileSync(join(DIR, 'broker-alerts.yml'), 'utf8');
const tests = readFileSync(join(DIR, 'broker-alerts.test.yml'), 'utf8');

/** Every series name the service registers with prom-client (src/ops/metrics and its default metrics), and `up`. */
async function servedSeries(): Promise<Set<string>> {
  const defaults = new Registry();
  collectDefaultMetrics({ register: defaults });
  const names = new Set(['up', ...(await defaults.getMetricsAsJSON()).map((m) => m.name)]);
  // The service's own series, and those the schemes declare for operations to serve (their observations).
  const schemeObservations = readdirSync('src/schemes', { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('-observations.ts'))
    .map((f) => join('src/schemes', f));
  const files = [
    ...readdirSync('src/ops/metrics')
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'))
      .map((f) => join('src/ops/metrics', f)),
    ...schemeObservations,
  ];
  for (const file of files) for (const [, name] of readFileSync(file, 'utf8').matchAll(/name: '([a-z_]+)'/g)) names.add(name);
  return names;
}

/** The alert rules an operator deploys (docs/operations.md), judged by Prometheus' own promtool. */
describeWithPackages(['prometheus'], 'Prometheus alert rules (deploy/prometheus)', () => {
  it('pass promtool check rules', () => {
    expect(execFileSync('promtool', ['check', 'rules', join(DIR, 'broker-alerts.yml')], { encoding: 'utf8' })).toContain('SUCCESS: 15 rules found');
  });

  it("pass promtool's unit tests, which give every alert a test of when it fires and when not", () => {
    const run = spawnSync('promtool', ['test', 'rules', 'broker-alerts.test.yml'], { cwd: DIR, encoding: 'utf8' });
    expect({ status: run.status, output: `${run.stdout}${run.stderr}`.trim() }).toEqual({ status: 0, output: expect.stringContaining('SUCCESS') });
    const alerts = [...rules.matchAll(/- alert: (\w+)/g)].map((m) => m[1]);
    const tested = new Set([...tests.matchAll(/alertname: (\w+)/g)].map((m) => m[1]));
    expect(alerts.filter((a) => !tested.has(a))).toEqual([]);
    // Each alert is also tested where it must stay silent (an empty exp_alerts at some time).
    const silent = new Set([...tests.matchAll(/alertname: (\w+)\n\s+exp_alerts: \[\]/g)].map((m) => m[1]));
    expect(alerts.filter((a) => !silent.has(a))).toEqual([]);
  });

  it('use only series the service serves', async () => {
    // The expressions only (the annotations name series in prose): `expr:` up to the rule's next key.
    const expressions = [...rules.matchAll(/expr: \|?([\s\S]*?)\n\s+(?:for|labels):/g)].map((m) => m[1]).join('\n');
    const used = new Set([...expressions.matchAll(/\b(broker_[a-z_]+|http_[a-z_]+|up)\b/g)].map((m) => m[1].replace(/_(count|bucket|sum)$/, '')));
    const served = await servedSeries();
    expect([...used].filter((name) => !served.has(name))).toEqual([]);
    expect(used.size).toBeGreaterThanOrEqual(11);
  });
});

const dashboard = JSON.parse(readFileSync('deploy/grafana/identity-broker.json', 'utf8')) as {
  uid: string;
  title: string;
  panels: { title: string; targets: { expr: string }[] }[];
};
/** The panels' queries with Grafana's variables given values, as Prometheus receives them. */
const queries = dashboard.panels.flatMap((p) =>
  p.targets.map((t) => ({ panel: p.title, expr: t.expr.replaceAll('$__rate_interval', '5m').replaceAll('$instance', '.*') })),
);

/** The Grafana dashboard an operator imports (docs/operations.md): it shows only series the service serves. */
describe('Grafana dashboard (deploy/grafana)', () => {
  it('has an uid, a title and a query in every panel, on series the service serves', async () => {
    expect([dashboard.uid, dashboard.title]).toEqual(['identity-broker', 'Identity broker']);
    expect(dashboard.panels.filter((p) => p.targets.length === 0 || p.targets.some((t) => !t.expr))).toEqual([]);
    const served = await servedSeries();
    const unknown = queries.flatMap(({ panel, expr }) =>
      [...expr.matchAll(/\b((?:broker|http|process|nodejs)_[a-z_]+)\b/g)]
        .map((m) => m[1].replace(/_(count|bucket|sum)$/, ''))
        .filter((n) => !served.has(n))
        .map((n) => `${panel}: ${n}`),
    );
    expect(unknown).toEqual([]);
  });
});

describeWithPackages(['prometheus'], 'Grafana dashboard queries', () => {
  it('are valid PromQL for promtool (each checked as a recording rule)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dashboard-promql-'));
    const file = join(dir, 'queries.yml');
    const rule = (expr: string, i: number) => `      - record: dashboard:query_${i}\n        expr: ${JSON.stringify(expr)}`;
    writeFileSync(file, `groups:\n  - name: dashboard\n    rules:\n${queries.map((q, i) => rule(q.expr, i)).join('\n')}\n`);
    expect(execFileSync('promtool', ['check', 'rules', file], { encoding: 'utf8' })).toContain(`SUCCESS: ${queries.length} rules found`);
  });
});
