import { randomBytes } from 'node:crypto';
import type { DataSource, EntityManager, FindOperator } from 'typeorm';
import { SecretBox } from '../../common/crypto/secret-box.js';
import type { AppConfig } from '../../config/load-config.js';
import type { BrokeredIdentity } from '../spi/eid-provider.js';
import { BrokeredLoginsService, type SealedLogin } from './brokered-logins.service.js';

/**
 * The brokered logins alone: the database is a stub that records each query and answers the rows the test gives it,
 * and the secret box is a real one, so what is sealed, with which context, and what is read back is checked here; the
 * SQL itself runs against PostgreSQL in the end-to-end tests.
 */
const RETENTION_SECONDS = 7200;
const config = { oidc: { loginRetentionSeconds: RETENTION_SECONDS } } as AppConfig;
const identity: BrokeredIdentity = {
  subject: 'person-1',
  claims: { given_name: 'Erika' },
  acr: 'urn:svc:cert:eidas:high',
  amr: ['hwk', 'face'],
  authTime: new Date('2026-05-01T12:00:00Z'),
  evidenceRef: 'rec-1',
};

function stubDatabase(rows: SealedLogin[] = []) {
  const queries: { sql: string; params: unknown[] }[] = [];
  const deleted: { expiresAt: FindOperator<Date> }[] = [];
  const dataSource = {
    // Not PostgreSQL, so the service's pool query is the data source's own query.
    options: { type: 'stub' },
    driver: {},
    query: async (sql: string, params: unknown[]) => (queries.push({ sql, params }), rows),
    getRepository: () => ({ delete: async (where: { expiresAt: FindOperator<Date> }) => (deleted.push(where), { affected: 3 }) }),
  } as unknown as DataSource;
  return { dataSource, queries, deleted };
}

describe('brokered logins', () => {
  const box = new SecretBox('k1', new Map([['k1', randomBytes(32)]]));

  it('stores a login sealed, its identity never in clear, with the facts the engine reads beside it and its end of life', async () => {
    const db = stubDatabase();
    const logins = new BrokeredLoginsService(db.dataSource, box, config);
    const before = Date.now();
    const id = await logins.store('m_1', 'grant-1', 'document-verifier', identity);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(db.queries).toHaveLength(1);
    const { sql, params } = db.queries[0];
    expect(sql).toMatch(/^INSERT INTO brokered_logins/);
    const [rowId, sealed, clientId, grantId, scheme, acr, amr, authTime, evidenceRef, expiresAt] = params as [
      string,
      string,
      string,
      string,
      string,
      string | null,
      string,
      Date,
      string | null,
      Date,
    ];
    expect([rowId, clientId, grantId, scheme, acr, amr, authTime, evidenceRef]).toEqual([
      id,
      'm_1',
      'grant-1',
      'document-verifier',
      identity.acr,
      '["hwk","face"]',
      identity.authTime,
      'rec-1',
    ]);
    expect(sealed).not.toContain('Erika');
    expect(sealed).not.toContain('person-1');
    // Sealed for this row: the context is the login's id, so a sealed identity copied to another row does not open.
    expect(JSON.parse(box.decryptText(sealed, `brokered-login:${id}`))).toMatchObject({ subject: 'person-1' });
    expect(() => box.decryptText(sealed, 'brokered-login:another')).toThrow();
    expect(expiresAt.getTime()).toBeGreaterThanOrEqual(before + RETENTION_SECONDS * 1000);
    expect(expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + RETENTION_SECONDS * 1000);
  });

  it('joins the transaction it is given, and stores no acr or evidence when the identity has none', async () => {
    const db = stubDatabase();
    const inTransaction: unknown[][] = [];
    const manager = { query: async (_sql: string, params: unknown[]) => inTransaction.push(params) } as unknown as EntityManager;
    const logins = new BrokeredLoginsService(db.dataSource, box, config);
    await logins.store('m_1', 'grant-2', 'test', { subject: 's', claims: {}, amr: [], authTime: new Date(0) }, manager);
    expect(db.queries).toEqual([]);
    expect(inTransaction).toHaveLength(1);
    expect([inTransaction[0][5], inTransaction[0][8]]).toEqual([null, null]);
  });

  it('finds a login by its grant among the unexpired ones, its identity unsealed with its time a Date again', async () => {
    const writer = stubDatabase();
    const id = await new BrokeredLoginsService(writer.dataSource, box, config).store('m_1', 'grant-1', 'test', identity);
    const row: SealedLogin = { id, client_id: 'm_1', scheme: 'test', identity_sealed: writer.queries[0].params[1] as string };
    const db = stubDatabase([row]);
    const logins = new BrokeredLoginsService(db.dataSource, box, config);
    const found = await logins.findByGrant('grant-1');
    expect(found).toEqual({ id, clientId: 'm_1', scheme: 'test', identity });
    expect(found?.identity.authTime).toBeInstanceOf(Date);
    expect(db.queries[0].sql).toMatch(/WHERE grant_id = \$1 AND expires_at > now\(\)/);
    expect(db.queries[0].params).toEqual(['grant-1']);
    expect(await new BrokeredLoginsService(stubDatabase([]).dataSource, box, config).findByGrant('grant-1')).toBeUndefined();
  });

  it('refuses to unseal a row whose sealed identity belongs to another login', async () => {
    const writer = stubDatabase();
    const logins = new BrokeredLoginsService(writer.dataSource, box, config);
    await logins.store('m_1', 'grant-1', 'test', identity);
    const row: SealedLogin = { id: 'another-login', client_id: 'm_1', scheme: 'test', identity_sealed: writer.queries[0].params[1] as string };
    expect(() => logins.unseal(row)).toThrow();
  });

  it('purges the logins whose time is up, up to the given moment, and counts them', async () => {
    const db = stubDatabase();
    const now = new Date('2026-05-02T00:00:00Z');
    expect(await new BrokeredLoginsService(db.dataSource, box, config).purgeExpired(now)).toBe(3);
    expect(db.deleted).toHaveLength(1);
    expect(db.deleted[0].expiresAt.type).toBe('lessThanOrEqual');
    expect(db.deleted[0].expiresAt.value).toBe(now);
  });
});
