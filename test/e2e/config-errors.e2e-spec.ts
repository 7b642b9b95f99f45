import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SERVICE_NODE_FLAGS } from '../../scripts/service-node-flags.js';
import { createTestDatabase } from '../support/test-database.js';

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

/**
 * Production reads every trust file at start (the trust store's start-up, not the config parsing): a wrong path or a
 * file that is not what its variable says stops the start, named, instead of failing the first person's verification.
 * That is past Nest's injection, so the service runs through SWC (decorator metadata) as service-process.ts runs it.
 */
describe('production start-up with bad trust files', () => {
  let dir: string;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'broker-trust-files-'));
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('names the variable and the file of each: TRUST_CSCA_PATHS, TRUST_MASTERLISTS, TRUST_CRLS', () => {
    const certificate = resolve('test/fixtures/icao/masterlists/CSCA_NL_serial6_2021.cer');
    const missing = join(dir, 'csca', 'missing.cer');
    const env = {
      PATH: process.env.PATH ?? '',
      PORT: '0',
      APP_ENV: 'production',
      BASE_URL: 'https://broker.example',
      DATA_DIR: dir,
      ...(database.url ? { DATABASE_URL: database.url } : { ALLOW_EMBEDDED_DATABASE: 'true' }),
      DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      COOKIE_KEYS: randomBytes(32).toString('base64url'),
      SUBJECT_SECRET: randomBytes(32).toString('base64url'),
      PAIRWISE_SECRET: randomBytes(32).toString('base64url'),
      LOG_LEVEL: 'silent',
      TRUST_CSCA_PATHS: missing,
      // A certificate where a master list and a CRL belong: each file exists, but is not what its variable says.
      TRUST_MASTERLISTS: certificate,
      TRUST_MASTERLIST_ANCHORS: certificate,
      TRUST_CRLS: certificate,
    };
    const run = spawnSync(process.execPath, [...SERVICE_NODE_FLAGS, '--import', './test/support/swc-register.mjs', 'src/main.ts'], {
      env,
      encoding: 'utf8',
      timeout: 240_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('Invalid configuration');
    expect(run.stderr).toContain(`- TRUST_CSCA_PATHS: ${missing}: no file or folder there`);
    expect(run.stderr).toContain(`- TRUST_MASTERLISTS: ${certificate}: not a CSCA master list signed under TRUST_MASTERLIST_ANCHORS`);
    expect(run.stderr).toContain(`- TRUST_CRLS: ${certificate}: not a CRL signed by a trusted CSCA`);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stdout).not.toContain('is up');
  }, 300_000);
});
