import { randomUUID } from 'node:crypto';
import { VerificationRecordsService } from '../../src/schemes/document-verifier/records/verification-records.service.js';
import { appWithRecord, fetchPdf, type Merchant } from '../support/auth-files-fetch.js';
import { sampleRecord } from '../support/auth-files-record.js';
import { pdfPageCount, pdfText, pdfToolsRequirement } from '../support/pdf-tools.js';
import { type TestApp } from '../support/test-app.js';
import { itWhen } from '../support/when-available.js';

const withTools = itWhen(pdfToolsRequirement());
const OPERATOR = 'Nordic ID Services AS';
/** The value printed beside a label (pdftotext -layout keeps them on one line). */
const valueOf = (text: string, label: string) => new RegExp(`^\\s*${label}\\s{2,}(.+)$`, 'm').exec(text)?.[1].trim();

/**
 * What the service puts on the report from the sealed record and the configuration: the issuer (OPERATOR_NAME), the
 * merchant, the customer-test and specimen marks, each check, the running engine's validated levels, the signed line.
 */
describe('auth-files evidence report content, fetched over HTTP (spec 4.8)', () => {
  let t: TestApp;
  let shop: Merchant;
  let passed: string;
  const stored: Record<string, string> = {};

  beforeAll(async () => {
    ({ t, shop, tid: passed } = await appWithRecord({ OPERATOR_NAME: OPERATOR }));
    const records = t.app.get(VerificationRecordsService);
    const store = async (name: string, over: Parameters<typeof sampleRecord>[1]) => {
      stored[name] = randomUUID();
      await records.store(stored[name], sampleRecord(shop.client_id, over));
    };
    const claims = {
      ...sampleRecord('').claims,
      document_type: 'PASSPORT',
      issuing_country: 'NOR',
      interpreted_issuing_country: 'Norway',
      gender: 'MALE',
      authentication_sources: ['SDK_NFC', 'SDK_FACESCAN'],
    };
    await store('level6', { claims, cloneDetection: 'chip-authentication', specimen: false, facematchLevel: 6 });
    await store('level4', { claims, cloneDetection: 'active-authentication', specimen: false, facematchLevel: 4 });
    // The chip failed (a data group hash), so no face step ran: no selfie, level 0, only the document's kind and state.
    const failedClaims = { authentication_result: 'fail', result_explanation: 'STATUS_BAD_DOCUMENTHASHES', document_type: 'PASSPORT', issuing_country: 'UTO' };
    await store('failed', {
      result: 'fail',
      explanations: ['STATUS_BAD_DOCUMENTHASHES'],
      selfie: undefined,
      facematchLevel: 0,
      eidasHigh: false,
      cloneDetection: 'none',
      specimen: true,
      claims: failedClaims,
    });
    // customer-test accepted a CRL past its nextUpdate (plus the grace): it passed, and the record says so.
    await store('crlWarned', {
      claims,
      cloneDetection: 'active-authentication',
      specimen: false,
      crl: { code: 'CRL_OUTDATED', nextUpdate: '2025-03-01T12:00:00.000Z', refused: false },
      warnings: ['CRL_OUTDATED: …'],
    });
    await store('crlCurrent', {
      claims,
      cloneDetection: 'active-authentication',
      specimen: false,
      crl: { code: 'CRL_CURRENT', nextUpdate: '2025-06-01T12:00:00.000Z', refused: false },
    });
    // A record sealed before the report's fields existed: judged by its claims (Utopia, no clone proof).
    await store('older', {
      claims: { ...claims, issuing_country: 'UTO', authentication_sources: ['SDK_NFC', 'SDK_NFC_NO_CLONE_PROOF', 'SDK_FACESCAN'] },
      eidasHigh: false,
    });
  }, 120_000);
  afterAll(() => t?.close(), 60_000);

  const text = async (tid: string, params: Record<string, unknown> = {}) => {
    const res = await fetchPdf(t, shop, tid, params);
    expect([res.status, res.body['response-code']]).toEqual([200, undefined]);
    return { text: pdfText(res.pdf, { layout: true }), pdf: res.pdf, format: res.body['content-format'] };
  };

  withTools('names the configured operator as issuer and the merchant as registered; marks every customer-test page TEST ONLY', async () => {
    const { text: page, pdf } = await text(stored.level6, { 'include-photos': true });
    expect([valueOf(page, 'Issued by'), valueOf(page, 'For merchant')]).toEqual([OPERATOR, 'Evidence shop']);
    for (let p = 1; p <= pdfPageCount(pdf); p++) expect(pdfText(pdf, { page: p })).toContain('TEST ONLY');
    // Not a specimen: the record says so.
    expect(page).not.toContain('SPECIMEN');
  });

  withTools('shows each check of a passed verification, and the extrapolation note for the running calibration (level 6, not 4)', async () => {
    const { text: six } = await text(stored.level6);
    expect(valueOf(six, 'Clone detection')).toBe('Passed – Chip Authentication');
    for (const label of ['Document signature', 'Country signer chain', 'Data group hashes', 'Document type accepted', 'Document not expired'])
      expect([label, valueOf(six, label)]).toEqual([label, 'Passed']);
    // Modelled, and said so on the line, beside the highest validated level's measured bound.
    expect(six.replace(/\s+/g, ' ')).toContain(
      'Passed – level 6, false acceptance rate 1 in 100,000 by a model, not measured; measured: at most 1 in 1,000 (level 4)',
    );
    expect(six).not.toContain('at most 1 in 100,000');
    expect(six.replace(/\s+/g, ' ')).toContain('Level 6 is above what the calibration data validates (levels up to 4)');
    const { text: four } = await text(stored.level4);
    expect(valueOf(four, 'Clone detection')).toBe('Passed – Active Authentication');
    expect(four).not.toContain('extrapolated');
  });

  withTools('shows a failed data group hash, the chip offering no clone detection, the face steps not performed, and the specimen mark', async () => {
    const { text: page } = await text(stored.failed);
    expect(page).toContain('Result: Failed');
    expect(page).toContain('SPECIMEN DOCUMENT');
    expect(valueOf(page, 'Data group hashes')).toBe('Failed');
    expect(valueOf(page, 'Document signature')).toBe('Passed');
    expect(valueOf(page, 'Clone detection')).toBe('Not possible – the chip offers none');
    expect(valueOf(page, 'Face match level')).toBe('Not performed – the chip checks failed first');
    expect(valueOf(page, 'Reason for failure')).toBe('Data group hashes differ');
    expect(page).not.toMatch(/STATUS_BAD|PASSPORT/);
  });

  withTools('says how current the country’s CRL was: passed with a warning and the date it missed when customer-test accepted it outdated', async () => {
    const crlLine = 'Revocation list \\(CRL\\) current';
    const { text: warned } = await text(stored.crlWarned);
    expect(warned).toContain('Result: Passed');
    expect(warned.replace(/\s+/g, ' ')).toContain(
      'Passed with a warning – the country’s revocation list was due for renewal on 1 March 2025 at 12:00:00 UTC: revocations published since then are not known',
    );
    expect(valueOf((await text(stored.crlCurrent)).text, crlLine)).toBe('Passed');
    // A record sealed before the CRL was kept has no such line.
    expect(valueOf((await text(stored.level6)).text, crlLine)).toBeUndefined();
    const { text: norwegian } = await text(stored.crlWarned, { locale: 'nb-NO' });
    expect(norwegian.replace(/\s+/g, ' ')).toContain('Godkjent med advarsel – landets sperreliste skulle vært fornyet 1. mars 2025');
  });

  withTools('judges an older record by its claims: specimen state Utopia, no clone proof offered', async () => {
    const { text: page } = await text(stored.older);
    expect(page).toContain('SPECIMEN DOCUMENT');
    expect(valueOf(page, 'Clone detection')).toBe('Not possible – the chip offers none');
    expect(valueOf(page, 'Data sources')).toBe('Document chip (NFC), chip without clone detection, face scan');
  });

  withTools('translates the values in nb-NO and keeps no claim codes on the page', async () => {
    const { text: page } = await text(stored.level6, { locale: 'nb-NO' });
    expect([valueOf(page, 'Dokumenttype'), valueOf(page, 'Kjønn'), valueOf(page, 'Utstedende land \\(navn\\)')]).toEqual(['Pass', 'Mann', 'Norge']);
    expect(page).not.toMatch(/PASSPORT|MALE|SDK_NFC|SDK_FACESCAN|Norway/);
    expect(page).toContain('KUN TEST');
  });

  withTools('says the report is electronically signed, and by whom, when PAdES is applied; never otherwise', async () => {
    const signed = await text(passed, { 'generate-pades': true });
    expect(signed.format).toBe('PADES');
    expect(signed.text.replace(/\s+/g, ' ')).toMatch(
      /This document is electronically signed by Identity broker customer-test evidence signer \([^)]+\) \(PAdES\)\./,
    );
    const plain = await text(passed);
    expect(plain.format).toBe('PDF');
    expect(plain.text).not.toMatch(/signed/i);
  });
});
