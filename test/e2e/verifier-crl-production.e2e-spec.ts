import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSpecimenAuthority, issueSpecimenCrl, issueSpecimenDocument } from '@identity-broker/icao9303';
import { VerifierClient } from '@identity-broker/verifier-sdk';
import { VerificationRecordsService } from '../../src/schemes/document-verifier/records/verification-records.service.js';
import { VerificationSessionEntity } from '../../src/schemes/document-verifier/session/verification-session.entity.js';
import { VerificationSessionsService } from '../../src/schemes/document-verifier/session/verification-sessions.service.js';
import { adminClient } from '../support/admin-client.js';
import { fetchPdf, type Merchant } from '../support/auth-files-fetch.js';
import { pdfText, pdfToolsRequirement } from '../support/pdf-tools.js';
import { productionTestEnv, startTestApp, type TestApp } from '../support/test-app.js';
import { face } from '../support/verifier-flow.js';
import { itWhen } from '../support/when-available.js';

const hour = 3600_000;
const day = 24 * hour;

/**
 * Production refuses a chip whose country's CRL is past its nextUpdate plus TRUST_CRL_GRACE_HOURS (RFC 5280 §6.3.3
 * (a)(1): the signer's revocation status is unknown): the merchant gets fail with STATUS_BAD_COUNTRYSIGNERCHAIN and the
 * evidence report says why. A CRL late by less than the grace still passes. Two test CSCAs, each with its own CRL,
 * generated here (issueSpecimenCrl: nextUpdate is 30 days after the date given).
 */
describe('production with an outdated CRL', () => {
  let t: TestApp;
  let local: string;
  let shop: Merchant;
  let dir: string;
  const documents: Record<'stale' | 'late', Awaited<ReturnType<typeof issueSpecimenDocument>>> = {} as never;
  const stored: Record<string, string> = {};

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'crl-production-'));
    const photo = face('sheldon-document.jpg');
    const files = { csca: [] as string[], crls: [] as string[] };
    for (const [name, due] of [
      ['stale', -3 * day],
      ['late', -10 * hour],
    ] as const) {
      const authority = await createSpecimenAuthority({ name: `CRL ${name}`, notBefore: new Date(Date.now() - 100 * day) });
      documents[name] = await issueSpecimenDocument(authority, { faceImage: photo, activeAuthentication: false });
      files.csca.push(join(dir, `${name}.cer`));
      writeFileSync(files.csca.at(-1)!, authority.csca.certificate.der);
      files.crls.push(join(dir, `${name}.crl`));
      writeFileSync(files.crls.at(-1)!, await issueSpecimenCrl(authority, [], new Date(Date.now() + due - 30 * day)));
    }
    t = await startTestApp({
      env: { ...productionTestEnv(), TRUST_CSCA_PATHS: files.csca.join(','), TRUST_CRLS: files.crls.join(','), TRUST_CRL_GRACE_HOURS: '24' },
    });
    // Production's BASE_URL is https://broker.example; the app API and auth files are reached here directly.
    local = `http://127.0.0.1:${t.env.PORT}`;
    shop = await adminClient(local, t.adminToken).createMerchant({
      name: 'CRL shop',
      redirect_uris: ['https://shop.example/callback'],
      eid_schemes: ['document-verifier'],
    });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A verification session of the merchant (as the broker page opens one) and the app's chip step with `document`. */
  const chipStep = async (document: (typeof documents)['stale']) => {
    const { session, qrToken } = await t.app
      .get(VerificationSessionsService)
      .create(shop.client_id, `crl-${Math.random()}`, { documentKinds: ['P', 'I'], showDocumentList: false, acrHigh: false, scopes: ['openid'] });
    const sdk = new VerifierClient(`${local}/app/v1`);
    await sdk.open(qrToken);
    const chip = await sdk.uploadChip({ sod: document.sod, dataGroups: document.dataGroups });
    return { session, sdk, chip };
  };

  it('fails the verification with STATUS_BAD_COUNTRYSIGNERCHAIN, and the record keeps the CRL it missed', async () => {
    const { session, sdk, chip } = await chipStep(documents.stale);
    expect(chip).toEqual({ received: true, next: 'outcome' });
    expect(await sdk.outcome()).toMatchObject({ state: 'completed', authentication_result: 'fail', result_explanation: ['STATUS_BAD_COUNTRYSIGNERCHAIN'] });
    const { recordId } = (await t.dataSource.getRepository(VerificationSessionEntity).findOneByOrFail({ id: session.id })) as { recordId: string };
    const record = await t.app.get(VerificationRecordsService).get(recordId);
    expect(record).toMatchObject({
      result: 'fail',
      explanations: ['STATUS_BAD_COUNTRYSIGNERCHAIN'],
      crl: { code: 'CRL_OUTDATED', refused: true },
      warnings: [],
    });
    expect(record!.failures).toEqual([expect.stringMatching(/^CRL_OUTDATED: .* refused \(RFC 5280 §6\.3\.3 \(a\)\(1\); 9303-12 §7\.1\.4\)$/)]);
    expect(record!.claims).toMatchObject({ authentication_result: 'fail', result_explanation: 'STATUS_BAD_COUNTRYSIGNERCHAIN' });
    stored.refused = recordId;
  });

  itWhen(pdfToolsRequirement())('says on the evidence report that the country’s CRL was outdated', async () => {
    const res = await fetchPdf({ ...t, baseUrl: local }, shop, stored.refused, {});
    expect(res.status).toBe(200);
    const text = pdfText(res.pdf, { layout: true });
    const valueOf = (label: string) => new RegExp(`^\\s*${label}\\s{2,}(.+)$`, 'm').exec(text)?.[1].trim();
    expect(text).toContain('Result: Failed');
    expect(valueOf('Country signer chain')).toBe('Failed');
    // The value wraps in its column: its first line beside the label, the rest below.
    expect(valueOf('Revocation list \\(CRL\\) current')).toMatch(/^Failed – the country’s revocation list was due for renewal on \d/);
    expect(text.replace(/\s+/g, ' ')).toMatch(/renewal on \d+ \w+ \d{4} at [\d:]+ UTC: revocations published since then are not known/);
    expect(text).not.toContain('TEST ONLY');
  });

  it('passes the chip step of a document whose CRL is late by less than the grace', async () => {
    const { chip } = await chipStep(documents.late);
    expect(chip).toEqual({ received: true, next: 'face' });
  });
});
