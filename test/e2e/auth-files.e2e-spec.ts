import { randomUUID } from 'node:crypto';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { PNG } from 'pngjs';
import * as client from 'openid-client';
import { Clock } from '../../src/common/clock.js';
import { reportCheckMessagesFor } from '../../src/i18n/auth-files-report-checks-messages.js';
import { REPORT_LOCALES, reportMessagesFor } from '../../src/i18n/auth-files-report-messages.js';
import { VerifierPurgeService } from '../../src/schemes/document-verifier/verifier-purge.service.js';
import { adminClient } from '../support/admin-client.js';
import { discover } from '../support/oidc-flow.js';
import { pdfToolsRequirement, run, status, withPdfFile } from '../support/pdf-tools.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { REDIRECT_URI, SHELDON, specimenDocumentDir, verifierLogin } from '../support/verifier-flow.js';
import { itWhen } from '../support/when-available.js';

const withTools = itWhen(pdfToolsRequirement());
const ALL_FLAGS = {
  noprint: true,
  noprinthq: true,
  nocopy: true,
  noedit: true,
  noannotations: true,
  nofillinforms: true,
  noaccesscontent: true,
  noassembledoc: true,
};
/** What qpdf --show-encryption prints for each restriction of spec 4.8 once set. */
const QPDF_LINES = [
  'print low resolution: not allowed',
  'print high resolution: not allowed',
  'extract for any purpose: not allowed',
  'modify other: not allowed',
  'modify annotations: not allowed',
  'modify forms: not allowed',
  'extract for accessibility: not allowed',
  'modify document assembly: not allowed',
];

interface Merchant {
  client_id: string;
  client_secret: string;
}

describe('auth-files (spec 4.8): a real verification, fetched by the merchant over HTTP, judged by qpdf and poppler', () => {
  let t: TestApp;
  let shop: Merchant;
  let other: Merchant;
  let tid: string;
  let config: client.Configuration;
  let documentDir: string;

  const fetchFile = async (merchant: Merchant | undefined, id: string, body: unknown, headers: Record<string, string> = {}) => {
    const auth: Record<string, string> = merchant
      ? { authorization: `Basic ${Buffer.from(`${merchant.client_id}:${merchant.client_secret}`).toString('base64')}` }
      : {};
    const res = await fetch(`${t.baseUrl}/auth_files/fetch.html?tid=${encodeURIComponent(id)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth, ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, string>, headers: res.headers };
  };
  const pdfOf = async (params: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
    const res = await fetchFile(shop, tid, { params: { type: 'application/pdf', ...params }, ...extra });
    expect([res.status, res.body['response-code']]).toEqual([200, undefined]);
    return Buffer.from(res.body.pdf, 'base64');
  };
  const withoutRequestId = (body: Record<string, string>) => ({ ...body, request_id: undefined });

  beforeAll(async () => {
    t = await startTestApp();
    const admin = adminClient(t.baseUrl, t.adminToken);
    // The shop may not ask for ssn: its report must not show the personal number the chip holds.
    shop = await admin.createMerchant({ name: 'Evidence shop', redirect_uris: [REDIRECT_URI], eid_schemes: ['document-verifier'], scope: 'openid profile' });
    other = await admin.createMerchant({ name: 'Other shop', redirect_uris: [REDIRECT_URI], eid_schemes: ['document-verifier'] });
    config = await discover(`${t.baseUrl}/oidc`, shop.client_id, shop.client_secret);
    documentDir = await specimenDocumentDir(t.baseUrl);
    const { claims } = await verifierLogin(t.baseUrl, config, { documentDir, person: SHELDON }, { scope: 'openid profile' });
    expect(claims.authentication_result).toBe('pass');
    tid = new URL(String(claims.auth_files_url)).searchParams.get('tid')!;
  }, 240_000);
  afterAll(() => t?.close(), 180_000);

  it('answers the document photo and the selfie as PNG', async () => {
    for (const source of ['document', 'selfie']) {
      const res = await fetchFile(shop, tid, { params: { type: 'image/png', source } });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.body).toMatchObject({ 'response-type': 'DATA', 'content-type': 'image/png', 'content-source': source });
      const png = PNG.sync.read(Buffer.from(res.body.png, 'base64'));
      expect(png.width).toBeGreaterThan(50);
      expect(png.height).toBeGreaterThan(50);
    }
  });

  withTools('writes a report qpdf accepts, with embedded fonts, the scope-gated attributes and the transaction id', async () => {
    const pdf = await pdfOf({ 'include-photos': 'true', pagesize: 'letter' }, { addendum: { Order: '4711', Note: 'paid <in full> & shipped' } });
    withPdfFile(pdf, (file) => {
      expect(run('qpdf', ['--check', file])).toContain('No syntax or stream encoding errors');
      const text = run('pdftotext', ['-layout', file, '-']);
      for (const expected of ['NORDMANN', 'KAARE', 'FH7654321', '15.01.1980', tid, 'Order', '4711', 'paid <in full> & shipped', 'Passed'])
        expect([expected, text.includes(expected)]).toEqual([expected, true]);
      // The verification's own record: the operator's default name, the merchant, the chip's proof, and the marks of a
      // customer-test report of a specimen chip (signed under this environment's specimen CSCA).
      for (const expected of ['Identity broker', 'Evidence shop', 'Passed – Active Authentication', 'TEST ONLY', 'SPECIMEN DOCUMENT'])
        expect([expected, text.includes(expected)]).toEqual([expected, true]);
      // personal_number needs the ssn scope, which this merchant does not have.
      expect(text).not.toContain('15018012345');
      const fonts = run('pdffonts', [file]).split('\n').slice(2).filter(Boolean);
      expect(fonts.length).toBeGreaterThan(0);
      for (const line of fonts) expect(line).toMatch(/DejaVuSans.* yes +yes +yes/);
      const info = run('pdfinfo', [file]);
      expect(info).toMatch(/Page size:\s+612 x 792/);
      expect(info).toMatch(/Pages:\s+[12]\n/);
    });
  });

  withTools(
    'shows no more than the login asked for: a login with scope openid alone gets no names in its report',
    async () => {
      const { claims } = await verifierLogin(t.baseUrl, config, { documentDir, person: SHELDON }, { scope: 'openid' });
      expect(claims).not.toHaveProperty('primary_identifier');
      const bareTid = new URL(String(claims.auth_files_url)).searchParams.get('tid')!;
      const res = await fetchFile(shop, bareTid, { params: { type: 'application/pdf' } });
      const text = withPdfFile(Buffer.from(res.body.pdf, 'base64'), (file) => run('pdftotext', [file, '-']));
      expect(text).toContain('FH7654321');
      // The profile attributes stay out (other_identifier, spec 2.1 scope "none", still names the holder, as in the ID token).
      for (const hidden of ['Surname', 'Given names', 'Date of birth', 'Place of birth', '15.01.1980', 'OSLO', 'MALE'])
        expect([hidden, text.includes(hidden)]).toEqual([hidden, false]);
    },
    120_000,
  );

  withTools('speaks each of the seven locales of spec 4.8', async () => {
    for (const locale of REPORT_LOCALES) {
      const t1 = reportMessagesFor(locale);
      const text = withPdfFile(await pdfOf({ locale }), (file) => run('pdftotext', [file, '-']));
      for (const expected of [t1.title, t1.pass, t1.claims.primary_identifier, reportCheckMessagesFor(locale).labels.faceMatch])
        expect([locale, expected, text.includes(expected)]).toEqual([locale, expected, true]);
    }
  });

  withTools(
    'encrypts with every encryption-length: key length and method, both passwords, every restriction',
    async () => {
      for (const bits of [40, 48, 56, 64, 72, 80, 88, 96, 104, 112, 120, 128, 256]) {
        const pdf = await pdfOf({ 'user-password': 'reader-pw', 'owner-password': 'owner-pw', 'encryption-length': bits, ...ALL_FLAGS });
        withPdfFile(pdf, (file) => {
          const json = JSON.parse(run('qpdf', ['--json', '--json-key=encrypt', '--password=owner-pw', file])).encrypt;
          expect([bits, json.encrypted, json.ownerpasswordmatched, json.parameters.bits, json.parameters.method]).toEqual([
            bits,
            true,
            true,
            bits,
            bits === 256 ? 'AESv3' : 'RC4',
          ]);
          expect(json.parameters.R).toBe(bits === 256 ? 6 : 3);
          const shown = run('qpdf', ['--show-encryption', '--password=owner-pw', file]);
          expect(shown).toContain('Supplied password is owner password');
          for (const line of QPDF_LINES) expect([bits, line, shown.includes(line)]).toEqual([bits, line, true]);
          expect(run('qpdf', ['--check', '--password=reader-pw', file])).toContain('No syntax or stream encoding errors');
          expect(run('pdftotext', ['-upw', 'reader-pw', file, '-'])).toContain('NORDMANN');
          // The owner password opens it with every permission (qpdf decrypts and may rewrite it).
          expect(status('qpdf', ['--password=owner-pw', '--decrypt', file, '/dev/null'])).toBe(0);
          expect(status('qpdf', ['--check', '--password=wrong', file])).not.toBe(0);
        });
      }
    },
    120_000,
  );

  withTools('leaves the XMP readable with encrypt-metadata false (128 and 256), never otherwise', async () => {
    for (const bits of [128, 256]) {
      const marker = `Case-${bits}-XMP`;
      const metadata = { dc: { title: marker } };
      const clear = await pdfOf({ 'user-password': 'pw', 'encryption-length': bits, 'encrypt-metadata': 'false' }, { metadata });
      const sealed = await pdfOf({ 'user-password': 'pw', 'encryption-length': bits }, { metadata });
      expect([bits, clear.includes(marker), sealed.includes(marker)]).toEqual([bits, true, false]);
      withPdfFile(clear, (file) => {
        expect(JSON.parse(run('qpdf', ['--json', '--json-key=encrypt', '--password=pw', file])).encrypt.parameters.bits).toBe(bits);
        expect(run('qpdf', ['--check', '--password=pw', file])).toContain('No syntax or stream encoding errors');
      });
    }
  });

  withTools('writes metadata into the information dictionary and XMP, escaped', async () => {
    const title = `A <b>"quoted"</b> & 'apostrophe'`;
    const pdf = await pdfOf(
      {},
      { metadata: { dc: { title, creator: 'Shop & Co' }, pdf: { Keywords: 'kyc, <passport>' }, xmp: { Label: 'KYC' }, custom: { CaseNumber: 'A-1 <2>' } } },
    );
    withPdfFile(pdf, (file) => {
      const info = run('pdfinfo', ['-isodates', file]);
      expect(info).toContain(`Title:           ${title}`);
      expect(info).toContain('Author:          Shop & Co');
      expect(info).toContain('Keywords:        kyc, <passport>');
      const custom = run('pdfinfo', ['-custom', file]);
      expect(custom).toMatch(/CaseNumber:\s+A-1 <2>/);
      const xmp = run('pdfinfo', ['-meta', file]);
      expect(xmp).toContain('A &lt;b&gt;&quot;quoted&quot;&lt;/b&gt; &amp; &apos;apostrophe&apos;');
      expect(xmp).toContain('<custom:CaseNumber>A-1 &lt;2&gt;</custom:CaseNumber>');
    });
  });

  it('signs the report of a real verification when PAdES is asked (customer-test signer; judged in auth-files-signing)', async () => {
    const res = await fetchFile(shop, tid, { params: { type: 'application/pdf', 'generate-pades': true } });
    expect(res.body).toMatchObject({ 'response-type': 'DATA', 'content-format': 'PADES' });
    expect(res.body).not.toHaveProperty('content-reason');
  });

  it('answers a JWT signed with the provider keys for Accept: application/jwt', async () => {
    const res = await fetch(`${t.baseUrl}/auth_files/fetch.html?tid=${tid}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/jwt',
        authorization: `Basic ${Buffer.from(`${shop.client_id}:${shop.client_secret}`).toString('base64')}`,
      },
      body: JSON.stringify({ params: { type: 'image/png', source: 'document' } }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/jwt/);
    const jwks = createRemoteJWKSet(new URL(`${t.baseUrl}/oidc/jwks`));
    const { payload, protectedHeader } = await jwtVerify(await res.text(), jwks, { issuer: `${t.baseUrl}/oidc`, audience: shop.client_id });
    expect(protectedHeader.alg).toBe('RS256');
    expect(payload).toMatchObject({ 'response-type': 'DATA', 'content-type': 'image/png', 'content-source': 'document' });
    expect(PNG.sync.read(Buffer.from(String(payload.png), 'base64')).width).toBeGreaterThan(50);
  });

  it('audits each fetch: merchant, tid, type, time; never the content', async () => {
    // Counted around fetches of its own: the tests before it may have been skipped (no qpdf or poppler here).
    const audit = async () => {
      const res = await adminClient(t.baseUrl, t.adminToken).call('GET', `/admin/v1/audit?target_type=verification_record&target_id=${tid}&per_page=100`);
      expect(res.status).toBe(200);
      return {
        text: res.text,
        total: res.body.total as number,
        items: res.body.items as { actor: string; action: string; changes: Record<string, unknown>; at: string }[],
      };
    };
    const before = (await audit()).total;
    for (const source of ['document', 'selfie']) expect((await fetchFile(shop, tid, { params: { type: 'image/png', source } })).status).toBe(200);
    const { items, text, total } = await audit();
    expect(total).toBe(before + 2);
    expect(items.length).toBe(Math.min(total, 100));
    expect(items.filter((i) => i.changes.type === 'image/png' && i.changes.source === 'selfie').length).toBeGreaterThanOrEqual(1);
    for (const item of items) {
      expect(item).toMatchObject({ actor: `merchant ${shop.client_id}`, action: 'auth_files.fetch' });
      expect(Object.keys(item.changes).every((k) => ['type', 'format', 'source'].includes(k))).toBe(true);
    }
    expect(text).not.toContain('NORDMANN');
  });

  it('refuses bad requests with the auth-files error object', async () => {
    const cases: [unknown, RegExp][] = [
      [{ params: { type: 'application/pdf', 'encryption-length': 100 } }, /encryption-length/],
      [{ params: { type: 'application/pdf', 'encryption-length': '96', 'encrypt-metadata': false } }, /encrypt-metadata false needs/],
      [{ params: { type: 'application/pdf', locale: 'de-DE' } }, /locale/],
      [{ params: { type: 'application/pdf', noprint: 'yes' } }, /noprint/],
      [{ params: { type: 'application/pdf', colour: 'blue' } }, /colour/],
      [{ params: { type: 'image/png' } }, /source/],
      [{ params: { type: 'image/png', source: 'document', locale: 'en-GB' } }, /application\/pdf only/],
      [{ params: { type: 'application/pdf', 'generate-pades': 'true', 'user-password': 'x' } }, /generate-pades/],
      [{ params: { type: 'application/pdf', 'pdf-a-mode': 'PDF/A-1b', 'owner-password': 'x' } }, /PDF\/A forbids encryption/],
      [{ params: { type: 'application/pdf', 'user-password': 'pässwörd€' } }, /Latin-1/],
      [{ params: { type: 'application/pdf' }, metadata: { custom: { Title: 'x' } } }, /may not set Title/],
      [{ params: { type: 'application/pdf' }, metadata: { dc: { title: 42 } } }, /string/],
      [{}, /params/],
    ];
    for (const [body, message] of cases) {
      const res = await fetchFile(shop, tid, body);
      expect([JSON.stringify(body), res.status, res.body['response-type'], res.body['response-code']]).toEqual([
        JSON.stringify(body),
        400,
        'VOID',
        'INVALID_REQUEST',
      ]);
      expect(res.body['response-message']).toMatch(message);
      expect(res.body).not.toHaveProperty('error');
    }
  });

  it('answers 401 in the same shape without valid merchant credentials', async () => {
    for (const merchant of [undefined, { ...shop, client_secret: 'wrong' }]) {
      const res = await fetchFile(merchant, tid, { params: { type: 'image/png', source: 'document' } });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Basic/);
      expect(res.body).toMatchObject({ 'response-type': 'VOID', 'response-code': 'UNAUTHORIZED' });
    }
  });

  it('answers another merchant, an unknown tid and a purged record alike (no existence oracle)', async () => {
    const body = { params: { type: 'image/png', source: 'document' } };
    const unknown = await fetchFile(shop, randomUUID(), body);
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ 'response-type': 'VOID', 'response-code': 'UNKNOWN_TRANSACTION' });
    const wrongMerchant = await fetchFile(other, tid, body);
    const malformed = await fetchFile(shop, 'not-a-tid', body);
    for (const res of [wrongMerchant, malformed]) {
      expect(res.status).toBe(400);
      expect(withoutRequestId(res.body)).toEqual(withoutRequestId(unknown.body));
    }
    // Past retention (spec 1.9): first only by date (the purge has not run yet), then deleted for good.
    const clock = t.app.get(Clock);
    clock.advance(91 * 86400_000);
    try {
      const expired = await fetchFile(shop, tid, body);
      expect([expired.status, withoutRequestId(expired.body)]).toEqual([400, withoutRequestId(unknown.body)]);
      await t.app.get(VerifierPurgeService).run();
    } finally {
      clock.advance(-91 * 86400_000);
    }
    const purged = await fetchFile(shop, tid, body);
    expect([purged.status, withoutRequestId(purged.body)]).toEqual([400, withoutRequestId(unknown.body)]);
  });
});
