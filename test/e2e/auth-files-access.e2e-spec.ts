import { randomUUID } from 'node:crypto';
import { SecretBox } from '../../src/common/crypto/secret-box.js';
import { Clock } from '../../src/common/clock.js';
import { VerificationRecordsService } from '../../src/schemes/document-verifier/records/verification-records.service.js';
import { adminClient } from '../support/admin-client.js';
import { sampleRecord } from '../support/auth-files-record.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { REDIRECT_URI } from '../support/verifier-flow.js';

interface Merchant {
  client_id: string;
  client_secret: string;
}

/**
 * Who may fetch an auth file, and that a refusal tells nothing: records are sealed straight through the verifier's
 * records service (no verification is run; the file formats are tested elsewhere).
 */
describe('auth-files access (spec 4.8, 1.9): refusals decided before anything is decrypted', () => {
  let t: TestApp;
  let shop: Merchant;
  let other: Merchant;
  let tid: string;

  const fetchFile = async (merchant: Merchant, id: string, body: unknown = { params: { type: 'image/png', source: 'document' } }) => {
    const res = await fetch(`${t.baseUrl}/auth_files/fetch.html?tid=${encodeURIComponent(id)}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Basic ${Buffer.from(`${merchant.client_id}:${merchant.client_secret}`).toString('base64')}`,
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, string> };
  };
  /** The record decryptions (contexts verification-record[-claims|-images]:<id>) done while `fn` runs, on the app's own SecretBox. */
  const decryptionsDuring = async (fn: () => Promise<unknown>): Promise<string[]> => {
    const box = t.app.get(SecretBox);
    const original = box.decrypt;
    const contexts: string[] = [];
    box.decrypt = function (sealed: string, context: string) {
      contexts.push(context);
      return original.call(this, sealed, context);
    };
    try {
      await fn();
      return contexts.filter((c) => c.startsWith('verification-record'));
    } finally {
      box.decrypt = original;
    }
  };

  beforeAll(async () => {
    t = await startTestApp();
    const admin = adminClient(t.baseUrl, t.adminToken);
    shop = await admin.createMerchant({ name: 'Evidence shop', redirect_uris: [REDIRECT_URI], eid_schemes: ['document-verifier'] });
    other = await admin.createMerchant({ name: 'Other shop', redirect_uris: [REDIRECT_URI], eid_schemes: ['document-verifier'] });
    tid = randomUUID();
    await t.app.get(VerificationRecordsService).store(tid, sampleRecord(shop.client_id));
  }, 120_000);
  afterAll(() => t?.close(), 60_000);

  it('decrypts the record for its merchant only: another merchant, an unknown tid and an expired record are refused unread', async () => {
    const unknown = randomUUID();
    const answers: Record<string, { status: number; body: Record<string, string> }> = {};
    const owner = await decryptionsDuring(async () => (answers.owner = await fetchFile(shop, tid)));
    expect(answers.owner.status).toBe(200);
    // Its claims (the owner checked again inside the seal), then its images.
    expect(owner).toEqual([`verification-record-claims:${tid}`, `verification-record-images:${tid}`]);

    expect(await decryptionsDuring(async () => (answers.foreign = await fetchFile(other, tid)))).toEqual([]);
    expect(await decryptionsDuring(async () => (answers.unknown = await fetchFile(other, unknown)))).toEqual([]);
    const clock = t.app.get(Clock);
    clock.advance(91 * 86400_000);
    try {
      expect(await decryptionsDuring(async () => (answers.expired = await fetchFile(shop, tid)))).toEqual([]);
    } finally {
      clock.advance(-91 * 86400_000);
    }
    for (const name of ['foreign', 'unknown', 'expired']) {
      const { request_id: _, ...body } = answers[name].body;
      expect([name, answers[name].status, body]).toEqual([
        name,
        400,
        { 'response-type': 'VOID', 'response-code': 'UNKNOWN_TRANSACTION', 'response-message': 'no auth file is available for this tid' },
      ]);
    }
  });

  it('answers a body that is not JSON, or carries a NUL or a lone surrogate, with the auth-files error object, not the generic one', async () => {
    const cases: [string, RegExp][] = [
      ['{"params": {"type": "application/pdf"', /not valid JSON/],
      ['{"params": {"type": "application/pdf"}}}', /not valid JSON/],
      ['{"params": {"type": "application/pdf", "locale": "en\\u0000GB"}}', /NUL/i],
      ['{"params": {"type": "application/pdf", "locale": "en\\udfffGB"}}', /lone UTF-16 surrogate/],
    ];
    for (const [body, message] of cases) {
      const res = await fetchFile(shop, tid, body);
      expect([body, res.status, res.body['response-type'], res.body['response-code']]).toEqual([body, 400, 'VOID', 'INVALID_REQUEST']);
      expect(res.body['response-message']).toMatch(message);
      expect(res.body).not.toHaveProperty('error');
      expect(res.body.request_id).toBeTruthy();
    }
    // A body too large for the JSON parser (256 kB) is refused in the same shape.
    const large = await fetchFile(shop, tid, JSON.stringify({ params: { type: 'application/pdf' }, addendum: { note: 'x'.repeat(300_000) } }));
    expect([large.status, large.body['response-type'], large.body['response-code']]).toEqual([413, 'VOID', 'PAYLOAD_TOO_LARGE']);
    expect(large.body).not.toHaveProperty('error');
    // More fields and array elements than any request needs (1,000): refused before validation, in the same shape.
    const wide = await fetchFile(
      shop,
      tid,
      JSON.stringify({ params: { type: 'application/pdf' }, addendum: Object.fromEntries(Array.from({ length: 1_001 }, (_, i) => [`k${i}`, 'v'])) }),
    );
    expect([wide.status, wide.body['response-type'], wide.body['response-code']]).toEqual([400, 'VOID', 'INVALID_REQUEST']);
    expect(wide.body['response-message']).toMatch(/more than 1000 fields and array elements/);
  });
});
