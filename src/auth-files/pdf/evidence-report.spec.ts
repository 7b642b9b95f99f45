import { renderEvidenceReport, type EvidenceReport } from './evidence-report.js';
import { reportChecks } from '../report/report-checks.js';
import { newTestSigner, signerFromPem } from '../signing/pades-signer.js';
import { reportCheckMessagesFor } from '../../i18n/auth-files-report-checks-messages.js';
import type { ReportLocale } from '../../i18n/auth-files-report-messages.js';
import { sampleJpeg } from '../../../test/support/auth-files-record.js';
import { pdfPageCount, pdfText, pdfToolsRequirement, run, withPdfFile } from '../../../test/support/pdf-tools.js';
import { failedReport, passedReport, SHIPPED_VALIDATED_LEVELS } from '../../../test/support/sample-reports.js';
import { TARGET_FAR } from '@identity-broker/face';
import { itWhen } from '../../../test/support/when-available.js';

const withTools = itWhen(pdfToolsRequirement());
const en = reportCheckMessagesFor('en-GB');

const render = (report: EvidenceReport, locale: ReportLocale = 'en-GB', extra: Partial<Parameters<typeof renderEvidenceReport>[1]> = {}) =>
  renderEvidenceReport(report, { locale, pageSize: 'a4', metadata: {}, ...extra });

/** The value printed beside a label (pdftotext -layout keeps them on one line). */
const valueOf = (text: string, label: string) => new RegExp(`^\\s*${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s{2,}(.+)$`, 'm').exec(text)?.[1].trim();

describe('evidence report: what each check concluded (report-checks)', () => {
  const outcomes = (...args: Parameters<typeof reportChecks>) =>
    Object.fromEntries(reportChecks(...args).map((c) => [c.id, [c.outcome, c.method ?? c.reason]]));

  it('passes every check of a passed verification, naming the clone detection proof', () => {
    expect(outcomes({ explanations: [], faceStepRan: true, cloneDetection: 'chip-authentication', facematchLevel: 6 })).toEqual({
      documentSignature: ['passed', undefined],
      signerChain: ['passed', undefined],
      dataGroupHashes: ['passed', undefined],
      cloneDetection: ['passed', 'chip-authentication'],
      documentType: ['passed', undefined],
      documentValidity: ['passed', undefined],
      faceMatch: ['passed', undefined],
      liveness: ['passed', undefined],
    });
  });

  it('fails exactly the checks named by the explanations; the face checks are not performed after a failed chip', () => {
    const chip = outcomes({
      explanations: ['STATUS_BAD_DOCUMENTSIGNATURE', 'STATUS_BAD_COUNTRYSIGNERCHAIN', 'STATUS_BAD_CLONEDETECTION'],
      faceStepRan: false,
      cloneDetection: 'active-authentication',
      facematchLevel: 0,
    });
    expect(chip).toMatchObject({
      documentSignature: ['failed', undefined],
      signerChain: ['failed', undefined],
      dataGroupHashes: ['passed', undefined],
      cloneDetection: ['failed', 'active-authentication'],
      faceMatch: ['notPerformed', 'chipFailedFirst'],
      liveness: ['notPerformed', 'chipFailedFirst'],
    });
    expect(outcomes({ explanations: ['STATUS_BAD_DOCUMENTEXPIRED', 'STATUS_BAD_DOCUMENTTYPE'], faceStepRan: false, facematchLevel: 0 })).toMatchObject({
      documentType: ['failed', undefined],
      documentValidity: ['failed', undefined],
      // A record that did not keep the method still says whether the check held.
      cloneDetection: ['passed', undefined],
    });
  });

  it('says a chip without clone detection offers none, and tells a face mismatch, a failed liveness and no face apart', () => {
    expect(outcomes({ explanations: [], faceStepRan: true, cloneDetection: 'none', facematchLevel: 3 }).cloneDetection).toEqual([
      'noneOffered',
      'chipOffersNone',
    ]);
    expect(outcomes({ explanations: ['STATUS_BAD_FACEMATCH'], faceStepRan: true, cloneDetection: 'none', facematchLevel: 0 })).toMatchObject({
      faceMatch: ['failed', undefined],
      liveness: ['passed', undefined],
    });
    expect(outcomes({ explanations: ['STATUS_BAD_LIVENESS'], faceStepRan: true, facematchLevel: 7 })).toMatchObject({
      faceMatch: ['passed', undefined],
      liveness: ['failed', undefined],
    });
    expect(outcomes({ explanations: ['STATUS_BAD_NOFACE'], faceStepRan: true, facematchLevel: 0 })).toMatchObject({
      faceMatch: ['failed', 'noFace'],
      liveness: ['notPerformed', 'noFace'],
    });
  });
});

describe('evidence report: the CRL line (how current the country signer chain’s revocation list was)', () => {
  const line = (crl: Parameters<typeof reportChecks>[0]['crl'], explanations: string[] = []) =>
    reportChecks({ explanations, faceStepRan: explanations.length === 0, cloneDetection: 'active-authentication', facematchLevel: 6, crl }).find(
      (c) => c.id === 'revocationList',
    );
  const missed = '2025-03-01T12:00:00.000Z';

  it('passes a current CRL, notes one within the grace, fails a refused one, warns of an accepted one, and says when none is loaded', () => {
    expect(line({ code: 'CRL_CURRENT', nextUpdate: '2025-06-01T00:00:00.000Z', refused: false })).toEqual({ id: 'revocationList', outcome: 'passed' });
    expect(line({ code: 'CRL_OUTDATED_IN_GRACE', nextUpdate: missed, refused: false })).toEqual({
      id: 'revocationList',
      outcome: 'passed',
      reason: 'crlInGrace',
      date: new Date(missed),
    });
    expect(line({ code: 'CRL_OUTDATED', nextUpdate: missed, refused: true }, ['STATUS_BAD_COUNTRYSIGNERCHAIN'])).toEqual({
      id: 'revocationList',
      outcome: 'failed',
      reason: 'crlOutdated',
      date: new Date(missed),
    });
    expect(line({ code: 'CRL_OUTDATED', nextUpdate: missed, refused: false })).toEqual({
      id: 'revocationList',
      outcome: 'warning',
      reason: 'crlOutdated',
      date: new Date(missed),
    });
    expect(line({ code: 'CRL_NONE', refused: false })).toEqual({ id: 'revocationList', outcome: 'notPerformed', reason: 'noCrl' });
  });

  it('has no line for a record sealed before the CRL was kept, and sits right after the country signer chain', () => {
    expect(line(undefined)).toBeUndefined();
    const ids = reportChecks({ explanations: [], faceStepRan: true, facematchLevel: 6, crl: { code: 'CRL_CURRENT', refused: false } }).map((c) => c.id);
    expect(ids.slice(0, 3)).toEqual(['documentSignature', 'signerChain', 'revocationList']);
  });

  withTools('prints it in words with the date the CRL missed, in every locale of the report', async () => {
    const report = (refused: boolean) => {
      const explanations = refused ? ['STATUS_BAD_COUNTRYSIGNERCHAIN'] : [];
      const checks = reportChecks({
        explanations,
        faceStepRan: !refused,
        cloneDetection: 'active-authentication',
        facematchLevel: refused ? 0 : 6,
        crl: { code: 'CRL_OUTDATED', nextUpdate: missed, refused },
      });
      return refused ? failedReport({ explanations, checks }) : passedReport({ checks });
    };
    const refused = pdfText(await render(report(true)), { layout: true });
    expect(valueOf(refused, 'Country signer chain')).toBe('Failed');
    expect(refused.replace(/\s+/g, ' ')).toContain(
      'Revocation list (CRL) current Failed – the country’s revocation list was due for renewal on 1 March 2025 at 12:00:00 UTC: revocations published since then are not known',
    );
    const warned = pdfText(await render(report(false)), { layout: true }).replace(/\s+/g, ' ');
    expect(warned).toContain('Revocation list (CRL) current Passed with a warning – the country’s revocation list was due for renewal on 1 March 2025');
    for (const locale of ['nb-NO', 'nn-NO', 'da-DK', 'sv-SE', 'sv-FI', 'fi-FI'] as const) {
      const c = reportCheckMessagesFor(locale);
      const text = pdfText(await render(report(false), locale)).replace(/\s+/g, ' ');
      const date = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'long', timeZone: 'UTC' }).format(new Date(missed));
      expect([
        locale,
        text.includes(c.labels.revocationList),
        text.includes(`${c.outcomes.warning} – ${c.crlOutdated.replace('{date}', date)}`.replace(/\s+/g, ' ')),
      ]).toEqual([locale, true, true]);
    }
  });
});

describe('evidence report: the page, read back with pdftotext', () => {
  withTools('names the issuer and the merchant', async () => {
    const text = pdfText(await render(passedReport({ issuer: 'Nordic ID Services AS', merchant: 'Evidence shop' })), { layout: true });
    expect([valueOf(text, en.issuedBy), valueOf(text, en.merchant)]).toEqual(['Nordic ID Services AS', 'Evidence shop']);
  });

  withTools('marks every page of a test report of a specimen document, and no page of a live one', async () => {
    // Photos and a long addendum make it run over several pages.
    const long = {
      photos: [
        { kind: 'document' as const, jpeg: sampleJpeg() },
        { kind: 'selfie' as const, jpeg: sampleJpeg(240, 320, 90) },
      ],
      addendum: Array.from({ length: 30 }, (_, i): [string, string] => [`Line ${i}`, `value ${i}`]),
    };
    const marked = await render(passedReport({ ...long, marks: ['test', 'specimen'] }));
    const pages = pdfPageCount(marked);
    expect(pages).toBeGreaterThanOrEqual(2);
    for (let page = 1; page <= pages; page++) {
      const text = pdfText(marked, { page });
      expect([page, text.includes(en.testMark), text.includes(en.specimenMark)]).toEqual([page, true, true]);
    }
    const live = await render(passedReport({ ...long, marks: [] }));
    for (let page = 1; page <= pdfPageCount(live); page++) expect(pdfText(live, { page })).not.toMatch(/TEST ONLY|SPECIMEN/);
    const testOnly = pdfText(await render(passedReport({ marks: ['test'] })));
    expect([testOnly.includes(en.testMark), testOnly.includes(en.specimenMark)]).toEqual([true, false]);
  });

  withTools('shows each check of a passed verification on its own line with its outcome', async () => {
    const text = pdfText(
      await render(
        passedReport({
          facematchLevel: 4,
          checks: reportChecks({ explanations: [], faceStepRan: true, cloneDetection: 'active-authentication', facematchLevel: 4 }),
        }),
      ),
      { layout: true },
    );
    expect(Object.fromEntries(Object.values(en.labels).map((label) => [label, valueOf(text, label)]))).toEqual({
      'Document signature': 'Passed',
      'Country signer chain': 'Passed',
      'Data group hashes': 'Passed',
      'Clone detection': 'Passed – Active Authentication',
      'Document type accepted': 'Passed',
      'Document not expired': 'Passed',
      'Face match level': 'Passed – level 4, false acceptance rate at most 1 in 1,000',
      // The label wraps onto a second line in its column; its first line carries the value.
      'Liveness and presentation-attack checks': undefined,
    });
    expect(text).toMatch(/Liveness and presentation-\s+Passed/);
  });

  withTools('shows which check failed: a data group hash, no clone detection offered, the face steps not performed', async () => {
    const text = pdfText(await render(failedReport()), { layout: true });
    expect(valueOf(text, 'Result')).toBeUndefined();
    expect(text).toContain('Result: Failed');
    expect(valueOf(text, 'Reason for failure')).toBe('Data group hashes differ');
    expect(valueOf(text, 'Data group hashes')).toBe('Failed');
    expect(valueOf(text, 'Document signature')).toBe('Passed');
    expect(valueOf(text, 'Clone detection')).toBe('Not possible – the chip offers none');
    expect(valueOf(text, 'Face match level')).toBe('Not performed – the chip checks failed first');
    expect(text).toMatch(/Liveness and presentation-\s+Not performed – the chip checks failed first/);
    const cloneFailed = pdfText(
      await render(
        failedReport({
          explanations: ['STATUS_BAD_CLONEDETECTION'],
          checks: reportChecks({ explanations: ['STATUS_BAD_CLONEDETECTION'], faceStepRan: false, cloneDetection: 'chip-authentication', facematchLevel: 0 }),
        }),
      ),
      { layout: true },
    );
    expect([valueOf(cloneFailed, 'Clone detection'), valueOf(cloneFailed, 'Data group hashes')]).toEqual(['Failed – Chip Authentication', 'Passed']);
  });

  withTools('says on the level line itself that a rate above the validated levels is modelled, with the measured bound beside it', async () => {
    const max = Math.max(...SHIPPED_VALIDATED_LEVELS);
    const oneIn = (level: number) => new Intl.NumberFormat('en-GB').format(Math.round(1 / TARGET_FAR[level as 1]));
    const at = async (level: number) => {
      const checks = reportChecks({ explanations: [], faceStepRan: true, cloneDetection: 'active-authentication', facematchLevel: level });
      return pdfText(await render(passedReport({ facematchLevel: level, checks }))).replace(/\s+/g, ' ');
    };
    const validated = await at(max);
    expect(validated).toContain(`level ${max}, false acceptance rate at most 1 in ${oneIn(max)}`);
    expect(validated).not.toMatch(/extrapolated|model/);
    for (const level of [max + 1, 9]) {
      const text = await at(level);
      expect(text).toContain(
        `level ${level}, false acceptance rate 1 in ${oneIn(level)} by a model, not measured; measured: at most 1 in ${oneIn(max)} (level ${max})`,
      );
      // No firm bound for a modelled level anywhere on the page.
      expect(text).not.toContain(`at most 1 in ${oneIn(level)}`);
      expect(text).toContain(`Level ${level} is above what the calibration data validates (levels up to ${max}): its false acceptance rate is extrapolated`);
    }
  });

  withTools('says a level is modelled, without a measured bound, when the calibration validates no level', async () => {
    const checks = reportChecks({ explanations: [], faceStepRan: true, cloneDetection: 'active-authentication', facematchLevel: 3 });
    const text = pdfText(await render(passedReport({ facematchLevel: 3, checks, validatedLevels: [] }))).replace(/\s+/g, ' ');
    expect(text).toContain('level 3, false acceptance rate 1 in 500 by a model, not measured');
    expect(text).not.toContain('measured: at most');
  });

  withTools('writes values in words in every locale: no claim codes on the page, country names translated', async () => {
    const codes = /PASSPORT|MALE|SDK_NFC|SDK_FACESCAN|STATUS_BAD|Norway/;
    const nb = pdfText(await render(passedReport(), 'nb-NO'), { layout: true });
    expect(nb).not.toMatch(codes);
    expect([
      valueOf(nb, 'Dokumenttype'),
      valueOf(nb, 'Kjønn'),
      valueOf(nb, 'Utstedende land (navn)'),
      valueOf(nb, 'Statsborgerskap (navn)'),
      valueOf(nb, 'Datakilder'),
    ]).toEqual(['Pass', 'Mann', 'Norge', 'Norge', 'Dokumentets brikke (NFC), ansiktsskanning']);
    expect(valueOf(nb, 'Kloningskontroll')).toBe('Godkjent – Active Authentication');
    const fi = pdfText(await render(failedReport({ explanations: ['STATUS_BAD_DOCUMENTHASHES', 'STATUS_BAD_LIVENESS'] }), 'fi-FI'), { layout: true });
    expect(fi).not.toMatch(codes);
    // The reason wraps in its column.
    expect(fi.replace(/\s+/g, ' ')).toMatch(/Hylkäyksen syy Tietoryhmien tiivisteet eivät täsmää, elävyyden tarkistus .*epäonnistui/);
    expect(valueOf(fi, 'Asiakirjan tyyppi')).toBe('Passi');
    const english = pdfText(await render(passedReport()), { layout: true });
    expect(english.replace('Norway', '')).not.toMatch(/PASSPORT|MALE|SDK_NFC|SDK_FACESCAN/);
    expect([valueOf(english, 'Document type'), valueOf(english, 'Sex'), valueOf(english, 'Data sources')]).toEqual([
      'Passport',
      'Male',
      'Document chip (NFC), face scan',
    ]);
  });

  withTools('says in words that the report is signed, and by whom, only when it is', async () => {
    const signer = await signerFromPem(await newTestSigner('unit.example'));
    const signed = await render(passedReport(), 'en-GB', { pades: signer });
    const text = pdfText(signed).replace(/\s+/g, ' ');
    expect(text).toContain('This document is electronically signed by Identity broker customer-test evidence signer (unit.example) (PAdES).');
    withPdfFile(signed, (file) => expect(run('pdfsig', [file])).toContain('Signature is Valid.'));
    const unsigned = pdfText(await render(passedReport()));
    expect(unsigned).not.toMatch(/signed/i);
    const nb = pdfText(await render(passedReport(), 'nb-NO', { pades: signer })).replace(/\s+/g, ' ');
    expect(nb).toContain('Dette dokumentet er elektronisk signert av Identity broker customer-test evidence signer (unit.example)');
  });

  withTools('lists other names only when they differ from the full name', async () => {
    const same = pdfText(await render(passedReport()), { layout: true });
    expect(valueOf(same, 'Full name')).toBe('KÅRE NORDMANN');
    expect(same).not.toContain('Other names');
    expect(same.match(/KÅRE/g)).toHaveLength(1);
    const attributes = passedReport().attributes.map((a) =>
      a.name === 'other_identifier' ? { ...a, value: 'NORDMANN, KÅRE; NORDMANN-LIE, KÅRE ANDREAS' } : a,
    );
    const other = pdfText(await render(passedReport({ attributes })), { layout: true });
    expect(valueOf(other, 'Other names')).toBe('NORDMANN-LIE, KÅRE ANDREAS');
  });
});
