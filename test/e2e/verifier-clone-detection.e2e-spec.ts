import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as client from 'openid-client';
import { issueSpecimenDocument } from '@identity-broker/icao9303';
import { SpecimenAuthorityService } from '../../src/schemes/document-verifier/specimen/specimen-authority.service.js';
import { adminClient } from '../support/admin-client.js';
import { discover } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { face, REDIRECT_URI, SHELDON, specimenDocumentDir, verifierLogin } from '../support/verifier-flow.js';

/** Clone detection is required by what the signed SOD lists (ICAO 9303-11 §6.1, §6.2), not by what the app uploads. */
describe('document verifier clone detection', () => {
  let t: TestApp;
  let config: client.Configuration;
  const high = { scope: 'openid profile', acr_values: 'urn:svc:acrp:level:high' };

  beforeAll(async () => {
    t = await startTestApp();
    const m = await adminClient(t.baseUrl, t.adminToken).createMerchant({ name: 'Clones', redirect_uris: [REDIRECT_URI], eid_schemes: ['document-verifier'] });
    config = await discover(`${t.baseUrl}/oidc`, m.client_id, m.client_secret);
  });
  afterAll(() => t?.close());

  it('fails a chip whose SOD lists DG15 (and DG14) when the app leaves them out and sends no Active Authentication answer', async () => {
    const dir = await specimenDocumentDir(t.baseUrl);
    for (const file of ['dg14.bin', 'dg15.bin', 'aa-key.der']) rmSync(join(dir, file));
    const { outcome, claims } = await verifierLogin(t.baseUrl, config, { documentDir: dir, person: SHELDON }, high);
    expect(outcome).toMatchObject({ state: 'completed', authentication_result: 'fail' });
    expect(outcome.result_explanation).toContain('STATUS_BAD_CLONEDETECTION');
    expect(claims.authentication_result).toBe('fail');
    expect(String(claims.result_explanation).split(',')).toContain('STATUS_BAD_CLONEDETECTION');
    expect(claims.acr).toBeUndefined();
  }, 180_000);

  it('passes a chip whose SOD lists neither DG14 nor DG15, never with eIDAS high, and says no chip key was proven', async () => {
    const authority = await t.app.get(SpecimenAuthorityService).get();
    const doc = await issueSpecimenDocument(authority, { faceImage: face('sheldon-document.jpg'), activeAuthentication: false });
    expect([...doc.dataGroups.keys()]).toEqual([1, 2]);
    const dir = mkdtempSync(join(tmpdir(), 'specimen-no-aa-'));
    writeFileSync(join(dir, 'sod.bin'), doc.sod);
    for (const [n, bytes] of doc.dataGroups) writeFileSync(join(dir, `dg${n}.bin`), bytes);

    const plain = await verifierLogin(t.baseUrl, config, { documentDir: dir, person: SHELDON }, high);
    expect(plain.outcome.authentication_result).toBe('pass');
    expect(plain.claims.authentication_result).toBe('pass');
    expect(plain.claims.facematch_level).toBeGreaterThanOrEqual(7);
    expect(plain.claims.acr).toBeUndefined();
    expect(plain.claims.amr).toEqual(['sc', 'face']);
    expect(plain.claims.authentication_sources).toEqual(['SDK_NFC', 'SDK_NFC_NO_CLONE_PROOF', 'SDK_FACESCAN']);

    // The same person with a chip that proves its key: eIDAS high, and amr says so (RFC 8176 hwk).
    const proven = await verifierLogin(t.baseUrl, config, { documentDir: await specimenDocumentDir(t.baseUrl), person: SHELDON }, high);
    expect(proven.claims.acr).toBe('urn:svc:cert:eidas:high');
    expect(proven.claims.amr).toEqual(['sc', 'hwk', 'face']);
    expect(proven.claims.authentication_sources).toEqual(['SDK_NFC', 'SDK_FACESCAN']);
  }, 240_000);
});
