import { appWithRecord, fetchPdf, type Merchant } from '../support/auth-files-fetch.js';
import { describeWithPreflight, preflightA1b, type PreflightVerdict } from '../support/pdf-preflight.js';
import { pdfToolsAvailable, run, withPdfFile } from '../support/pdf-tools.js';
import { type TestApp } from '../support/test-app.js';

describeWithPreflight('auth-files PDF/A-1b judged by PDFBox Preflight (spec 4.8 pdf-a-mode, generate-pades)', () => {
  let t: TestApp;
  let shop: Merchant;
  let tid: string;
  const pdfs: Record<string, Buffer> = {};
  let verdicts: Record<string, PreflightVerdict>;

  beforeAll(async () => {
    ({ t, shop, tid } = await appWithRecord());
    const asks = {
      plain: { 'include-photos': true },
      a1b: { 'pdf-a-mode': 'PDF/A-1b', 'include-photos': true },
      'a1b-pades': { 'pdf-a-mode': 'PDF/A-1b', 'generate-pades': true, 'include-photos': true },
    };
    for (const [name, params] of Object.entries(asks)) {
      const res = await fetchPdf(t, shop, tid, params);
      expect([name, res.status, res.body['content-format']]).toEqual([name, 200, name.endsWith('pades') ? 'PADES' : 'PDF']);
      pdfs[name] = res.pdf;
    }
    // One JVM for all three files.
    verdicts = await preflightA1b(pdfs);
  }, 120_000);
  afterAll(() => t?.close(), 60_000);

  it('passes the PDF/A-1b report', () => {
    expect(verdicts.a1b).toEqual({ valid: true, errors: [] });
  });

  it('passes the PDF/A-1b report signed with PAdES: its signature field has an appearance', () => {
    expect(verdicts['a1b-pades']).toEqual({ valid: true, errors: [] });
  });

  it('shows the signature on the last page: a printed, visible widget with a normal appearance, and the signature still verifies', () => {
    const raw = pdfs['a1b-pades'].toString('latin1');
    const widget = /<<\n\/Type \/Annot\n\/Subtype \/Widget\n[\s\S]*?\n>>/.exec(raw)?.[0] ?? '';
    const [x1, y1, x2, y2] = (/\/Rect \[([\d.\s-]+)\]/.exec(widget)?.[1] ?? '').trim().split(/\s+/).map(Number);
    expect([x2 - x1 > 100, y2 - y1 > 10]).toEqual([true, true]);
    // Print set; Hidden, Invisible and NoView clear (ISO 19005-1 §6.5.3).
    expect(Number(/\/F (\d+)/.exec(widget)?.[1]) & 0b100111).toBe(0b100);
    expect(widget).toMatch(/\/AP <<\n\/N \d+ 0 R\n>>/);
    const pages =
      /\/Type \/Pages\n\/Count \d+\n\/Kids \[([^\]]*)\]/
        .exec(raw)?.[1]
        .trim()
        .split(/ 0 R ?/)
        .filter(Boolean) ?? [];
    expect(/\/P (\d+) 0 R/.exec(raw.slice(raw.indexOf(widget)))?.[1]).toBe(pages.at(-1));
    if (!pdfToolsAvailable()) return;
    withPdfFile(pdfs['a1b-pades'], (file) => expect(run('pdfsig', [file])).toContain('Signature is Valid.'));
  });

  it('fails a report that is not PDF/A (the judge can say no)', () => {
    expect(verdicts.plain.valid).toBe(false);
    expect(verdicts.plain.errors).toEqual(expect.arrayContaining([expect.stringMatching(/^7\.11: .*PDF\/A identification schema/)]));
  });
});
