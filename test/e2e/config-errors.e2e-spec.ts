import { spawnSync } from 'node:child_process';

/** The service started with `env` and nothing else, as far as its start gets: exit status and what it printed. */
const startWith = (env: Record<string, string>) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { PATH: process.env.PATH, PORT: '0', DATA_DIR: '/tmp/broker-config-errors-test', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });

/** Every variable is validated before anything else runs: a bad one is named, never a stack trace. */
describe('start-up with a bad variable', () => {
  it('names LOG_LEVEL when it is not a level, instead of crashing in the logger', () => {
    const run = startWith({ LOG_LEVEL: 'loud' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('Invalid configuration');
    expect(run.stderr).toMatch(/LOG_LEVEL: /);
    expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(run.stdout).not.toContain('is up');
  });

  it('refuses an accent colour that breaks AA and says why, before anything listens', () => {
    const run = startWith({ OPERATOR_ACCENT_COLOUR: '#4a90e2' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('Invalid configuration');
    expect(run.stderr).toMatch(/OPERATOR_ACCENT_COLOUR: #4a90e2 reaches .* need 4\.5:1 \(WCAG 2\.2 AA, 1\.4\.3\): choose a darker shade/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stdout).not.toContain('is up');
  });
});
