import { randomUUID } from 'node:crypto';
import { VerificationRecordsService } from '../../src/schemes/document-verifier/records/verification-records.service.js';
import { adminClient } from './admin-client.js';
import { sampleRecord } from './auth-files-record.js';
import { startTestApp, type TestApp } from './test-app.js';
import { REDIRECT_URI } from './verifier-flow.js';

export interface Merchant {
  client_id: string;
  client_secret: string;
}

/** Starts the app, registers a merchant and seals a record for it (no verification run: the file is under test). */
export async function appWithRecord(env?: Record<string, string>): Promise<{ t: TestApp; shop: Merchant; tid: string }> {
  const t = await startTestApp({ env });
  const shop = await adminClient(t.baseUrl, t.adminToken).createMerchant({
    name: 'Evidence shop',
    redirect_uris: [REDIRECT_URI],
    eid_schemes: ['document-verifier'],
  });
  const tid = randomUUID();
  await t.app.get(VerificationRecordsService).store(tid, sampleRecord(shop.client_id));
  return { t, shop, tid };
}

/** The merchant's auth-files fetch of the report as a PDF (spec 4.8) with these params. */
export async function fetchPdf(t: TestApp, shop: Merchant, tid: string, params: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const res = await fetch(`${t.baseUrl}/auth_files/fetch.html?tid=${tid}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${shop.client_id}:${shop.client_secret}`).toString('base64')}` },
    body: JSON.stringify({ params: { type: 'application/pdf', ...params }, ...extra }),
  });
  const body = (await res.json()) as Record<string, string>;
  return { status: res.status, body, pdf: body.pdf ? Buffer.from(body.pdf, 'base64') : Buffer.alloc(0) };
}
