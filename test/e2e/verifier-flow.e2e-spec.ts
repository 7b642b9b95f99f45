import { writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sign } from 'node:crypto';
import * as client from 'openid-client';
import { Clock } from '../../src/common/clock.js';
import { VerifierPurgeService } from '../../src/schemes/document-verifier/verifier-purge.service.js';
import { adminClient } from '../support/admin-client.js';
import { discover } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { PENNY, REDIRECT_URI, SHELDON, specimenDocumentDir, verifierLogin } from '../support/verifier-flow.js';

const DATE = /^\d{2}\.\d{2}\.\d{4}$/;

describe('document verifier end to end (openid-client merchant, SDK phone, specimen chip)', () => {
  let t: TestApp;
  let config: client.Configuration;
  let documentDir: string;
  const high = { scope: 'openid profile ssn', acr_values: 'urn:svc:acrp:level:high' };

  beforeAll(async () => {
    t = await startTestApp();
    const admin = adminClient(t.baseUrl, t.adminToken);
    const m = await admin.createMerchant({ name: 'Verifier shop', redirect_uris: [REDIRECT_URI], eid_schemes: ['document-verifier'] });
    config = await discover(`${t.baseUrl}/oidc`, m.client_id, m.client_secret);
    documentDir = await specimenDocumentDir(t.baseUrl);
  });
  afterAll(() => t?.close(), 180_000);

  it('passes a genuine document and the same person, with eIDAS high and every claim of spec 2.1 in format', async () => {
    const { outcome, claims, waitingPage } = await verifierLogin(t.baseUrl, config, { documentDir, person: SHELDON }, high);
    expect(waitingPage.html).toContain('<svg');
    expect(outcome).toMatchObject({ state: 'completed', authentication_result: 'pass', result_explanation: [] });
    expect(claims.authentication_result).toBe('pass');
    expect(claims.facematch_level).toBeGreaterThanOrEqual(7);
    expect(claims.acr).toBe('urn:svc:cert:eidas:high');
    expect(claims).toMatchObject({
      document_type: 'PASSPORT',
      issuing_country: 'NOR',
      interpreted_issuing_country: 'Norway',
      document_number: 'FH7654321',
      primary_identifier: 'NORDMANN',
      secondary_identifier: 'KAARE',
      nationality: 'NOR',
      interpreted_nationality: 'Norway',
      birthdate: '15.01.1980',
      personal_number: '15018012345',
      gender: 'MALE',
      place_of_birth: 'OSLO',
      authentication_sources: ['SDK_NFC', 'SDK_FACESCAN'],
    });
    expect(claims.date_of_expiry).toMatch(DATE);
    // The chip's DG11 holds the full name NORDMANN<<KÅRE: name, given_name and family_name all come from it and
    // agree with each other; the MRZ form (KAARE) stays in the identifiers, the DG11 spelling in other_identifier.
    expect(claims).toMatchObject({ name: 'KÅRE NORDMANN', given_name: 'KÅRE', family_name: 'NORDMANN', other_identifier: 'NORDMANN, KÅRE' });
    expect(claims.name).toBe(`${claims.given_name} ${claims.family_name}`);
    expect(claims).toMatchObject({ display_name: 'Kåre Nordmann', display_given_name: 'Kåre', display_family_name: 'Nordmann' });
    expect(claims.auth_files_url).toMatch(new RegExp(`^${t.baseUrl}/auth_files/fetch\\.html\\?tid=[0-9a-f-]{36}$`));
    expect(claims).not.toHaveProperty('result_explanation');
  }, 180_000);

  it('fails a selfie of another person: level below 7, no eIDAS high', async () => {
    const { outcome, claims } = await verifierLogin(t.baseUrl, config, { documentDir, person: PENNY }, high);
    expect(outcome.authentication_result).toBe('fail');
    expect(claims.authentication_result).toBe('fail');
    expect(outcome.facematch_level).toBeLessThan(7);
    // A failed verification's claims explain the failure only (result_explanation), not its figures.
    expect(claims).not.toHaveProperty('facematch_level');
    expect(claims.acr).not.toBe('urn:svc:cert:eidas:high');
    expect(String(claims.result_explanation)).toContain('STATUS_BAD_FACEMATCH');
  }, 180_000);

  it('fails a tampered DG1 with STATUS_BAD_DOCUMENTHASHES: no stable sub, no identity claims', async () => {
    const genuine = await verifierLogin(t.baseUrl, config, { documentDir, person: SHELDON }, high);
    expect(genuine.claims.authentication_result).toBe('pass');
    const tamperedLogin = async () => {
      const tampered = await specimenDocumentDir(t.baseUrl);
      const dg1 = readFileSync(join(tampered, 'dg1.bin'));
      // The genuine document's state and number with another name (the TD3 name has no check digit, so the
      // MRZ still reads): only the SOD hash shows the forgery.
      dg1.write('MORDMANN', dg1.indexOf('NORDMANN'));
      writeFileSync(join(tampered, 'dg1.bin'), dg1);
      return verifierLogin(t.baseUrl, config, { documentDir: tampered, person: SHELDON }, high);
    };
    const first = await tamperedLogin();
    const second = await tamperedLogin();
    for (const { claims } of [first, second]) {
      expect(claims.authentication_result).toBe('fail');
      expect(String(claims.result_explanation).split(',')).toContain('STATUS_BAD_DOCUMENTHASHES');
      expect(claims.acr).toBeUndefined();
      expect(claims).toMatchObject({ document_type: 'PASSPORT', issuing_country: 'NOR', interpreted_issuing_country: 'Norway' });
      for (const name of [
        'name',
        'primary_identifier',
        'secondary_identifier',
        'given_name',
        'family_name',
        'display_name',
        'display_given_name',
        'display_family_name',
        'birthdate',
        'document_number',
        'personal_number',
        'nationality',
        'date_of_expiry',
        'place_of_birth',
        'gender',
      ])
        expect([name, name in claims]).toEqual([name, false]);
    }
    // A forged DG1 never logs in as the document it names: the sub is not the genuine one, nor stable.
    expect(first.claims.sub).not.toBe(genuine.claims.sub);
    expect(second.claims.sub).not.toBe(genuine.claims.sub);
    expect(first.claims.sub).not.toBe(second.claims.sub);
  }, 240_000);

  it('fails a replayed Active Authentication response with STATUS_BAD_CLONEDETECTION', async () => {
    const key = readFileSync(join(documentDir, 'aa-key.der'));
    const recorded = new Uint8Array(sign('sha256', Buffer.from('0011223344556677', 'hex'), { key, format: 'der', type: 'pkcs8', dsaEncoding: 'ieee-p1363' }));
    const { claims } = await verifierLogin(t.baseUrl, config, { documentDir, person: SHELDON, replayedActiveAuth: recorded }, high);
    expect(claims.authentication_result).toBe('fail');
    expect(String(claims.result_explanation).split(',')).toContain('STATUS_BAD_CLONEDETECTION');
  }, 180_000);

  it('fails a document of a kind the merchant did not ask for (binding_message ntdr-doc-types)', async () => {
    const binding = JSON.stringify({ 'ntdr-doc-types': 'I,D' });
    const { claims } = await verifierLogin(t.baseUrl, config, { documentDir, person: SHELDON }, { ...high, binding_message: binding });
    expect(claims.authentication_result).toBe('fail');
    expect(String(claims.result_explanation).split(',')).toEqual(['STATUS_BAD_DOCUMENTTYPE']);
  }, 180_000);

  it('gates claims by scope: no personal_number without ssn, no identity attributes without profile', async () => {
    const noSsn = await verifierLogin(t.baseUrl, config, { documentDir, person: SHELDON }, { scope: 'openid profile' });
    expect(noSsn.claims).not.toHaveProperty('personal_number');
    expect(noSsn.claims.primary_identifier).toBe('NORDMANN');
    const bare = await verifierLogin(t.baseUrl, config, { documentDir, person: SHELDON }, { scope: 'openid' });
    for (const name of [
      'name',
      'given_name',
      'family_name',
      'display_name',
      'display_given_name',
      'display_family_name',
      'primary_identifier',
      'secondary_identifier',
      'nationality',
      'birthdate',
      'gender',
      'place_of_birth',
      'personal_number',
    ])
      expect([name, name in bare.claims]).toEqual([name, false]);
    expect(bare.claims).toMatchObject({ authentication_result: 'pass', document_number: 'FH7654321' });
    expect(bare.claims.acr).toBeUndefined();
  }, 240_000);

  it('keeps no clear-text personal data in the database', async () => {
    const dump = JSON.stringify(
      await Promise.all(
        ['verification_records', 'verification_sessions', 'brokered_logins', 'oidc_payloads', 'audit_records'].map((table) =>
          t.dataSource.query(`SELECT * FROM ${table}`),
        ),
      ),
    );
    // A secret as a value of its own, not inside a run of Base64 (sealed data, keys and JWTs are full of letters:
    // one CI run found "OSLO" by chance inside ciphertext).
    const inClear = (secret: string) => new RegExp(`(?<![A-Za-z0-9+/_-])${secret.replace(/\./g, '\\.')}(?![A-Za-z0-9+/=_-])`).test(dump);
    for (const secret of ['FH7654321', 'NORDMANN', 'KAARE', '15018012345', 'OSLO', '15.01.1980', '19800115', 'Norway'])
      expect([secret, inClear(secret)]).toEqual([secret, false]);
    const records = await t.dataSource.query('SELECT key_id, sealed FROM verification_records');
    expect(records.length).toBeGreaterThan(0);
    for (const r of records) expect(r.sealed.startsWith(`v1.${r.key_id}.`)).toBe(true);
  });

  it('purges verification records past the retention period, for good (controlled clock)', async () => {
    const clock = t.app.get(Clock);
    const purge = t.app.get(VerifierPurgeService);
    const count = async () => (await t.dataSource.query('SELECT count(*)::int AS n FROM verification_records'))[0].n as number;
    const before = await count();
    expect(before).toBeGreaterThan(0);
    clock.advance(89 * 86400_000);
    await purge.run();
    expect(await count()).toBe(before);
    clock.advance(2 * 86400_000);
    const purged = await purge.run();
    expect(purged.records).toBe(before);
    expect(await count()).toBe(0);
    clock.advance(-91 * 86400_000);
  });
});
