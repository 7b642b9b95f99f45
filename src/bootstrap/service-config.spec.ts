import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadServiceConfig } from './scheme-manifests.js';
import { verifierConfig } from '../schemes/document-verifier/config/verifier-config.js';
import { configProblems } from '../../test/support/config-problems.js';

const key = () => randomBytes(32).toString('base64');
const dataDir = () => mkdtempSync(join(tmpdir(), 'cfg-'));

const problemsOf = (env: Record<string, string>): string[] => configProblems(() => loadServiceConfig(env));

describe('configuration', () => {
  it('defaults to customer-test on the embedded database with generated, persisted development secrets', () => {
    const dir = dataDir();
    const config = loadServiceConfig({ DATA_DIR: dir });
    expect(config.env).toBe('customer-test');
    expect(config.port).toBe(3000);
    expect(config.baseUrl).toBe('http://localhost:3000');
    expect(config.database).toEqual({ kind: 'embedded', dir: join(dir, 'pglite') });
    // No Redis: every engine model in the database; the key prefix has its default for when there is one.
    expect([config.redisUrl, config.redisKeyPrefix]).toEqual([undefined, 'broker:']);
    expect(config.generatedSecrets).toEqual(['DATA_ENCRYPTION_KEY', 'COOKIE_KEYS', 'SUBJECT_SECRET', 'PAIRWISE_SECRET']);
    expect(config.storedSecrets).toEqual([]);
    const again = loadServiceConfig({ DATA_DIR: dir });
    // The next start reads them: nothing generated (the start banner says so only when it did).
    expect([again.generatedSecrets, again.storedSecrets]).toEqual([[], ['DATA_ENCRYPTION_KEY', 'COOKIE_KEYS', 'SUBJECT_SECRET', 'PAIRWISE_SECRET']]);
    expect(loadServiceConfig({ DATA_DIR: dir, COOKIE_KEYS: randomBytes(32).toString('hex') }).storedSecrets).toEqual([
      'DATA_ENCRYPTION_KEY',
      'SUBJECT_SECRET',
      'PAIRWISE_SECRET',
    ]);
    expect(again.encryption.keys.get('k1')).toEqual(config.encryption.keys.get('k1'));
    expect([again.subjectSecret, again.pairwiseSecret]).toEqual([config.subjectSecret, config.pairwiseSecret]);
    expect(JSON.parse(readFileSync(join(dir, 'development-secrets.json'), 'utf8')).cookieKeys).toEqual(config.cookieKeys);
    // Each secret is its own random value: a subject key is never a cookie key.
    expect(new Set([config.subjectSecret, config.pairwiseSecret, ...config.cookieKeys]).size).toBe(3);
  });

  it('adds the subject secrets to a development-secrets.json written before they existed, keeping the old keys', () => {
    const dir = dataDir();
    const old = { dataEncryptionKey: key(), cookieKeys: [randomBytes(32).toString('base64url')] };
    writeFileSync(join(dir, 'development-secrets.json'), JSON.stringify(old));
    const config = loadServiceConfig({ DATA_DIR: dir });
    expect(config.encryption.keys.get('k1')).toEqual(Buffer.from(old.dataEncryptionKey, 'base64'));
    expect(config.cookieKeys).toEqual(old.cookieKeys);
    expect(config.subjectSecret.length).toBeGreaterThanOrEqual(32);
    const stored = JSON.parse(readFileSync(join(dir, 'development-secrets.json'), 'utf8'));
    expect(stored).toMatchObject({ ...old, subjectSecret: config.subjectSecret, pairwiseSecret: config.pairwiseSecret });
    expect(loadServiceConfig({ DATA_DIR: dir }).subjectSecret).toBe(config.subjectSecret);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ APP_ENV: 'staging' }, 'APP_ENV'],
    [{ BASE_URL: 'ftp://x' }, 'BASE_URL'],
    [{ BASE_URL: 'https://broker.example/?q=1' }, 'BASE_URL'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ DATA_ENCRYPTION_KEY: 'short' }, 'DATA_ENCRYPTION_KEY'],
    [{ ADMIN_API_TOKEN: 'too-short' }, 'ADMIN_API_TOKEN'],
    [{ TRUST_PROXY: 'maybe' }, 'TRUST_PROXY'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ REDIS_KEY_PREFIX: 'has space' }, 'REDIS_KEY_PREFIX'],
    [{ OPERATOR_NAME: 'Line\nbreak Ltd' }, 'OPERATOR_NAME'],
    [{ OPERATOR_NAME: 'x'.repeat(121) }, 'OPERATOR_NAME'],
    [{ OPERATOR_NAME: '   ' }, 'OPERATOR_NAME'],
    [{ VERIFIER_APP_NAME: 'x'.repeat(41) }, 'VERIFIER_APP_NAME'],
    [{ VERIFIER_APP_NAME: 'Broker\u202eVerify' }, 'VERIFIER_APP_NAME'],
    [{ VERIFIER_APP_STORE_URL: 'http://apps.example/app' }, 'VERIFIER_APP_STORE_URL'],
    [{ VERIFIER_PLAY_STORE_URL: 'javascript:alert(1)' }, 'VERIFIER_PLAY_STORE_URL'],
    [{ TRUST_CRL_GRACE_HOURS: '-1' }, 'TRUST_CRL_GRACE_HOURS'],
    [{ TRUST_CRL_GRACE_HOURS: '721' }, 'TRUST_CRL_GRACE_HOURS'],
    [{ TRUST_CRL_GRACE_HOURS: '2 days' }, 'TRUST_CRL_GRACE_HOURS'],
  ])('names the bad variable in %j', (env, variable) => {
    const problems = problemsOf({ DATA_DIR: dataDir(), ...env });
    expect(problems).toHaveLength(1);
    expect(problems[0].startsWith(`${variable}:`)).toBe(true);
  });

  it('names the operator on evidence reports: OPERATOR_NAME, trimmed, or a default when unset or empty', () => {
    expect(loadServiceConfig({ DATA_DIR: dataDir(), OPERATOR_NAME: ' Nordic ID Services AS ' }).authFiles.operatorName).toBe('Nordic ID Services AS');
    for (const env of [{}, { OPERATOR_NAME: '' }]) expect(loadServiceConfig({ DATA_DIR: dataDir(), ...env }).authFiles.operatorName).toBe('Identity broker');
  });

  it('gives a CRL 48 hours past its nextUpdate by default (TRUST_CRL_GRACE_HOURS), 0 to 720 when set', () => {
    expect(verifierConfig(loadServiceConfig({ DATA_DIR: dataDir() })).trust.crlGraceHours).toBe(48);
    for (const hours of [0, 720])
      expect(verifierConfig(loadServiceConfig({ DATA_DIR: dataDir(), TRUST_CRL_GRACE_HOURS: String(hours) })).trust.crlGraceHours).toBe(hours);
  });

  it('names the verifier app on the waiting page, with the store pages configured', () => {
    expect(verifierConfig(loadServiceConfig({ DATA_DIR: dataDir() })).app).toEqual({ name: 'Broker Verify', storeLinks: [] });
    const app = verifierConfig(
      loadServiceConfig({ DATA_DIR: dataDir(), VERIFIER_APP_NAME: ' Kompis ID ', VERIFIER_PLAY_STORE_URL: 'https://play.example/kompis' }),
    ).app;
    expect(app).toEqual({ name: 'Kompis ID', storeLinks: [{ store: 'Google Play', href: 'https://play.example/kompis' }] });
  });

  it('names every bad variable at once', () => {
    const problems = problemsOf({ PORT: 'x', APP_ENV: 'y', LOG_LEVEL: 'z' });
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual(['APP_ENV', 'LOG_LEVEL', 'PORT']);
  });

  it("names the schemes' problems in the one list with the core's: its variables, operations, then each scheme's section", () => {
    const problems = problemsOf({ DATA_DIR: dataDir(), PORT: 'x', FACE_ENGINE: 'arcface', WALLET_REQUEST_TTL_SECONDS: '5', RATE_LIMITS: 'maybe' });
    expect(problems.map((p) => p.split(':')[0])).toEqual(['PORT', 'RATE_LIMITS', 'FACE_ENGINE', 'WALLET_REQUEST_TTL_SECONDS']);
  });

  it('refuses production with development defaults', () => {
    const problems = problemsOf({ APP_ENV: 'production', BASE_URL: 'http://broker.example' });
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual([
      'BASE_URL',
      'COOKIE_KEYS',
      'DATABASE_URL',
      'DATA_ENCRYPTION_KEY',
      'PAIRWISE_SECRET',
      'SUBJECT_SECRET',
      'TRUST_CSCA_PATHS',
    ]);
  });

  it('accepts production with explicit secrets, and the embedded database only with an explicit opt-in', () => {
    const env = {
      APP_ENV: 'production',
      BASE_URL: 'https://broker.example',
      DATA_ENCRYPTION_KEY: key(),
      COOKIE_KEYS: randomBytes(32).toString('hex'),
      SUBJECT_SECRET: randomBytes(32).toString('hex'),
      PAIRWISE_SECRET: randomBytes(32).toString('hex'),
      TRUST_CSCA_PATHS: '/etc/broker/csca',
      DATA_DIR: dataDir(),
    };
    expect(problemsOf(env)).toEqual(['DATABASE_URL: production needs PostgreSQL (or ALLOW_EMBEDDED_DATABASE=true as an explicit opt-in)']);
    const embedded = loadServiceConfig({ ...env, ALLOW_EMBEDDED_DATABASE: 'true' });
    expect(embedded.database.kind).toBe('embedded');
    expect(embedded.generatedSecrets).toEqual([]);
    const pg = loadServiceConfig({ ...env, DATABASE_URL: 'postgresql://db.internal/broker' });
    expect(pg.database).toEqual({ kind: 'postgres', url: 'postgresql://db.internal/broker' });
    expect(pg.isProduction).toBe(true);
  });

  it('keeps old data keys readable for rotation', () => {
    const old = key();
    const config = loadServiceConfig({ DATA_DIR: dataDir(), DATA_ENCRYPTION_KEY: key(), DATA_ENCRYPTION_KEY_ID: 'k2', DATA_ENCRYPTION_OLD_KEYS: `k1:${old}` });
    expect(config.encryption.currentKeyId).toBe('k2');
    expect(config.encryption.keys.get('k1')).toEqual(Buffer.from(old, 'base64'));
  });
});
