import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeWithPackages } from '../support/peer-process.js';

const DIR = 'deploy/prometheus';
const rules = readFileSync(join(DIR, 'broker-alerts.yml'), 'utf8');
const tests = readFileSync(join(DIR, 'broker-alerts.test.yml'), 'utf8');

/** Every series name the service registers with prom-client (src/ops/metrics), plus the scrape's own `up`. */
function servedSeries(): Set<string> {
  const names = new Set(['up']);
  for (const file of readdirSync('src/ops/metrics').filter((f) => f.endsWith('.ts')))
    for (const [, name] of readFileSync(join('src/ops/metrics', file), 'utf8').matchAll(/name: '([a-z_]+)'/g)) names.add(name);
  return names;
}

/** The alert rules an operator deploys (docs/operations.md), judged by Prometheus' own promtool. */
describeWithPackages(['prometheus'], 'Prometheus alert rules (deploy/prometheus)', () => {
  it('pass promtool check rules', () => {
    expect(execFileSync('promtool', ['check', 'rules', join(DIR, 'broker-alerts.yml')], { encoding: 'utf8' })).toContain('SUCCESS: 8 rules found');
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

  it('use only series the service serves', () => {
    // The expressions only (the annotations name series in prose): `expr:` up to the rule's next key.
    const expressions = [...rules.matchAll(/expr: \|?([\s\S]*?)\n\s+(?:for|labels):/g)].map((m) => m[1]).join('\n');
    const used = new Set([...expressions.matchAll(/\b(broker_[a-z_]+|http_[a-z_]+|up)\b/g)].map((m) => m[1].replace(/_(count|bucket|sum)$/, '')));
    const served = servedSeries();
    expect([...used].filter((name) => !served.has(name))).toEqual([]);
    expect(used.size).toBeGreaterThanOrEqual(8);
  });
});
