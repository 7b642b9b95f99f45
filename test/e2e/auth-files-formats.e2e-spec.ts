import * as asn1js from 'asn1js';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as pkijs from 'pkijs';
import { newTestSigner } from '../../src/auth-files/signing/pades-signer.js';
import { PadesSignerService } from '../../src/auth-files/signing/pades-signer.service.js';
import { appWithRecord, fetchPdf, type Merchant } from '../support/auth-files-fetch.js';
import { pdfToolsRequirement, run, withPdfFile } from '../support/pdf-tools.js';
import { type TestApp } from '../support/test-app.js';
import { itWhen } from '../support/when-available.js';

const withTools = itWhen(pdfToolsRequirement());

/** Where the signed ranges end and resume: /ByteRange [0 holeStart holeEnd rest]. */
function signatureHole(pdf: Buffer): { holeStart: number; holeEnd: number } {
  const [holeStart, holeEnd] = /\/ByteRange \[0 (\d+) (\d+) (\d+) *\]/.exec(pdf.toString('latin1'))!.slice(1).map(Number);
  return { holeStart, holeEnd };
}

/** The CMS of the (single) signature: the /Contents hex string, the hole between the two signed ranges. */
function signatureCms(pdf: Buffer): pkijs.SignedData {
  const { holeStart, holeEnd } = signatureHole(pdf);
  const hex = pdf.subarray(holeStart + 1, holeEnd - 1).toString('latin1');
  const der = Buffer.from(hex, 'hex');
  const parsed = asn1js.fromBER(new Uint8Array(der));
  const contentInfo = new pkijs.ContentInfo({ schema: parsed.result });
  return new pkijs.SignedData({ schema: contentInfo.content });
}

/** pdfsig's report, which exits non-zero when a signature does not validate. */
function pdfsig(file: string): string {
  try {
    return run('pdfsig', [file]);
  } catch (e) {
    return String((e as { stdout?: string }).stdout);
  }
}

describe('auth-files PAdES and PDF/A (spec 4.8 generate-pades, pdf-a-mode), judged by pdfsig, qpdf and poppler', () => {
  let t: TestApp;
  let shop: Merchant;
  let tid: string;

  beforeAll(async () => {
    ({ t, shop, tid } = await appWithRecord());
  }, 120_000);
  afterAll(() => t?.close(), 60_000);

  withTools('signs with customer-test’s generated signer: valid for pdfsig, ETSI.CAdES.detached, qpdf accepts the file', async () => {
    const res = await fetchPdf(t, shop, tid, { 'generate-pades': 'true', 'include-photos': true });
    expect([res.status, res.body['content-format'], res.body['content-reason']]).toEqual([200, 'PADES', undefined]);
    withPdfFile(res.pdf, (file) => {
      const report = pdfsig(file);
      expect(report).toContain('Signature Type: ETSI.CAdES.detached');
      expect(report).toContain('Signature Validation: Signature is Valid.');
      expect(report).toContain('Total document signed');
      expect(report).toMatch(/Signer Certificate Common Name: Identity broker customer-test evidence signer/);
      expect(run('qpdf', ['--check', file])).toContain('No syntax or stream encoding errors');
      expect(run('pdftotext', [file, '-'])).toContain('NORDMANN');
    });
  });

  withTools('is reported broken by pdfsig once one byte of the signed range changes', async () => {
    const { pdf } = await fetchPdf(t, shop, tid, { 'generate-pades': true });
    const { holeEnd } = signatureHole(pdf);
    // The binary comment of the header (first range), then the bytes after /Contents (second range): both signed.
    for (const i of [pdf.indexOf('\n%') + 2, holeEnd + 10]) {
      const changed = Buffer.from(pdf);
      changed[i] ^= 0x01;
      withPdfFile(changed, (file) => {
        const report = pdfsig(file);
        expect(report).not.toContain('Signature is Valid.');
        expect(report).toMatch(/Signature Validation: (Digest Mismatch|Signature is Invalid)/);
      });
    }
  });

  it('carries the signed attributes of PAdES B-B: content-type, message-digest, signing-certificate-v2, no signing-time', async () => {
    const { pdf } = await fetchPdf(t, shop, tid, { 'generate-pades': true });
    const signed = signatureCms(pdf);
    const types = signed.signerInfos[0].signedAttrs!.attributes.map((a) => a.type).sort();
    expect(types).toEqual(['1.2.840.113549.1.9.16.2.47', '1.2.840.113549.1.9.3', '1.2.840.113549.1.9.4']);
    expect(types).not.toContain('1.2.840.113549.1.9.5');
    // ESSCertIDv2's certHash is the SHA-256 of the signer's certificate (the hash algorithm is the default, so absent).
    const attribute = signed.signerInfos[0].signedAttrs!.attributes.find((a) => a.type === '1.2.840.113549.1.9.16.2.47')!;
    const essCertId = (attribute.values[0] as asn1js.Sequence).valueBlock.value[0] as asn1js.Sequence;
    const certHash = ((essCertId.valueBlock.value[0] as asn1js.Sequence).valueBlock.value[0] as asn1js.OctetString).valueBlock.valueHexView;
    const signerDer = (signed.certificates![0] as pkijs.Certificate).toSchema().toBER(false);
    expect(Buffer.from(certHash).toString('hex')).toBe(createHash('sha256').update(new Uint8Array(signerDer)).digest('hex'));
    expect(signed.encapContentInfo.eContent).toBeUndefined();
    // The chain travels with it: the signer and the test CA.
    expect(signed.certificates).toHaveLength(2);
    expect(pdf.toString('latin1')).toMatch(/\/SubFilter \/ETSI\.CAdES\.detached/);
  });

  it('refuses generate-pades with a password or any other encryption (400, auth-files error)', async () => {
    for (const extra of [{ 'user-password': 'x' }, { 'owner-password': 'y' }, { noprint: true }, { 'encryption-length': 256 }]) {
      const res = await fetchPdf(t, shop, tid, { 'generate-pades': true, ...extra });
      expect([JSON.stringify(extra), res.status, res.body['response-type'], res.body['response-code']]).toEqual([
        JSON.stringify(extra),
        400,
        'VOID',
        'INVALID_REQUEST',
      ]);
      expect(res.body['response-message']).toMatch(/generate-pades/);
    }
  });

  it('returns the unsigned PDF with content-format PDF and content-reason when there is no signer', async () => {
    const service = t.app.get(PadesSignerService);
    const current = service.current.bind(service);
    service.current = async () => undefined;
    try {
      const res = await fetchPdf(t, shop, tid, { 'generate-pades': true });
      expect([res.status, res.body['content-format'], res.body['content-reason']]).toEqual([200, 'PDF', 'no PAdES signer is configured on this service']);
      expect(res.pdf.toString('latin1')).not.toContain('/ByteRange');
    } finally {
      service.current = current;
    }
  });

  withTools(
    'signs with the key and chain of PADES_SIGNING_KEY_FILE and PADES_CERTIFICATE_CHAIN_FILE when configured',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'pades-config-'));
      const own = await newTestSigner('configured.example');
      writeFileSync(join(dir, 'key.pem'), own.privateKeyPem);
      writeFileSync(join(dir, 'chain.pem'), own.chainPem);
      const configured = await appWithRecord({ PADES_SIGNING_KEY_FILE: join(dir, 'key.pem'), PADES_CERTIFICATE_CHAIN_FILE: join(dir, 'chain.pem') });
      try {
        const res = await fetchPdf(configured.t, configured.shop, configured.tid, { 'generate-pades': true });
        expect(res.body['content-format']).toBe('PADES');
        withPdfFile(res.pdf, (file) => {
          const report = pdfsig(file);
          expect(report).toContain('Signature is Valid.');
          expect(report).toContain('evidence signer (configured.example)');
        });
      } finally {
        await configured.t.close();
        rmSync(dir, { recursive: true, force: true });
      }
    },
    120_000,
  );

  withTools(
    'writes each PDF/A mode: fonts embedded, pdfaid in the XMP, an sRGB output intent; 1a tagged',
    async () => {
      for (const [mode, part, conformance] of [
        ['PDF/A-1a', 1, 'A'],
        ['PDF/A-1b', 1, 'B'],
        ['PDF/A-2', 2, 'B'],
        ['PDF/A-3', 3, 'B'],
      ] as const) {
        const res = await fetchPdf(
          t,
          shop,
          tid,
          { 'pdf-a-mode': mode, 'include-photos': true },
          { metadata: { dc: { subject: 'KYC' }, custom: { CaseNumber: 'A-1' } } },
        );
        expect([mode, res.status, res.body['content-format']]).toEqual([mode, 200, 'PDF']);
        const raw = res.pdf.toString('latin1');
        expect(raw).toMatch(/\/OutputIntents \[\d+ 0 R\]/);
        expect(raw).toMatch(/\/S \/GTS_PDFA1/);
        expect(raw.startsWith(part === 1 ? '%PDF-1.4' : '%PDF-1.7')).toBe(true);
        withPdfFile(res.pdf, (file) => {
          expect(run('qpdf', ['--check', file])).toContain('No syntax or stream encoding errors');
          const fonts = run('pdffonts', [file]).split('\n').slice(2).filter(Boolean);
          expect(fonts.length).toBeGreaterThan(0);
          // name, type, encoding, then emb sub uni: every font embedded.
          for (const line of fonts) expect([mode, line]).toEqual([mode, expect.stringMatching(/ yes +yes +yes +\d+ +\d+$/)]);
          const xmp = run('pdfinfo', ['-meta', file]);
          expect(xmp).toContain(`<pdfaid:part>${part}</pdfaid:part>`);
          expect(xmp).toContain(`<pdfaid:conformance>${conformance}</pdfaid:conformance>`);
          // The custom key is declared by a PDF/A extension schema; Subject is dc:description too.
          expect(xmp).toContain('<pdfaSchema:prefix>custom</pdfaSchema:prefix>');
          expect(xmp).toMatch(/<dc:description><rdf:Alt><rdf:li xml:lang="x-default">KYC<\/rdf:li>/);
          const info = run('pdfinfo', [file]);
          expect([mode, /Tagged:\s+yes/.test(info)]).toEqual([mode, mode === 'PDF/A-1a']);
          expect(run('pdftotext', [file, '-'])).toContain('NORDMANN');
          if (mode === 'PDF/A-1a') {
            const structure = run('pdfinfo', ['-struct-text', file]);
            for (const element of ['Document', 'H1', 'H2', 'Figure', '"NORDMANN"']) expect([element, structure.includes(element)]).toEqual([element, true]);
          }
        });
      }
    },
    120_000,
  );

  withTools('signs a PDF/A file with PAdES: both hold', async () => {
    const res = await fetchPdf(t, shop, tid, { 'pdf-a-mode': 'PDF/A-2', 'generate-pades': true });
    expect(res.body['content-format']).toBe('PADES');
    withPdfFile(res.pdf, (file) => {
      expect(pdfsig(file)).toContain('Signature is Valid.');
      expect(run('pdfinfo', ['-meta', file])).toContain('<pdfaid:part>2</pdfaid:part>');
      expect(run('qpdf', ['--check', file])).toContain('No syntax or stream encoding errors');
    });
  });

  it('refuses PDF/A with a password or any other encryption (PDF/A forbids it)', async () => {
    for (const extra of [{ 'user-password': 'x' }, { noprint: true }, { 'encryption-length': 128 }]) {
      const res = await fetchPdf(t, shop, tid, { 'pdf-a-mode': 'PDF/A-3', ...extra });
      expect([res.status, res.body['response-code'], res.body['response-message']]).toEqual([
        400,
        'INVALID_REQUEST',
        expect.stringMatching(/PDF\/A forbids encryption/),
      ]);
    }
    const bad = await fetchPdf(t, shop, tid, { 'pdf-a-mode': 'PDF/A-4' });
    expect([bad.status, bad.body['response-message']]).toEqual([400, expect.stringMatching(/pdf-a-mode/)]);
  });
});
