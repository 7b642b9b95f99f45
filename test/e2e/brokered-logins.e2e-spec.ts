import { randomUUID } from 'node:crypto';
import { BrokeredLoginsService } from '../../src/broker/logins/brokered-logins.service.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** The completed logins tokens are answered from: sealed at rest, found by grant, never past their expiry. */
describe('brokered logins', () => {
  let t: TestApp;
  let logins: BrokeredLoginsService;
  beforeAll(async () => {
    t = await startTestApp();
    logins = t.app.get(BrokeredLoginsService);
  });
  afterAll(() => t?.close());

  const identity = () => ({
    subject: `sub-${randomUUID()}`,
    claims: { given_name: 'Anna', family_name: 'Example' },
    acr: 'urn:test:high',
    amr: ['hwk', 'face'],
    authTime: new Date('2026-11-23T10:00:00.000Z'),
  });

  it('gives back the identity stored for a grant, sealed in the row', async () => {
    const grantId = `grant-${randomUUID()}`;
    const stored = identity();
    const id = await logins.store('client-a', grantId, 'test', stored);
    const found = await logins.findByGrant(grantId);
    expect(found).toEqual({ id, clientId: 'client-a', scheme: 'test', identity: stored });
    expect(found!.identity.authTime).toBeInstanceOf(Date);
    const [row] = await t.dataSource.query('SELECT identity_sealed, amr, acr, auth_time FROM brokered_logins WHERE id = $1', [id]);
    expect(row.identity_sealed).not.toContain('Anna');
    expect(row.amr).toEqual(['hwk', 'face']);
    expect(row.acr).toBe('urn:test:high');
    expect(new Date(row.auth_time).toISOString()).toBe('2026-11-23T10:00:00.000Z');
  });

  it('finds nothing for an unknown grant or a login past its expiry', async () => {
    expect(await logins.findByGrant(`grant-${randomUUID()}`)).toBeUndefined();
    const grantId = `grant-${randomUUID()}`;
    const id = await logins.store('client-a', grantId, 'test', identity());
    await t.dataSource.query(`UPDATE brokered_logins SET expires_at = now() - interval '1 second' WHERE id = $1`, [id]);
    expect(await logins.findByGrant(grantId)).toBeUndefined();
  });
});
