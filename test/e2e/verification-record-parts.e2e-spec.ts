import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { Clock } from '../../src/common/clock.js';
import { SecretBox, SecretBoxError } from '../../src/common/crypto/secret-box.js';
import { claimsContext, imagesContext, wholeRecordContext } from '../../src/schemes/document-verifier/records/verification-record-parts.js';
import { VerificationRecordsService } from '../../src/schemes/document-verifier/records/verification-records.service.js';
import { sampleRecord } from '../support/auth-files-record.js';
import { offerFor, passedRecord, testKey } from '../support/credential-issuer.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { PRE_AUTH, vciClient } from '../support/vci-client.js';

/** A passed verification as the verifier keeps it: the passport's claims, with a chip photo and a selfie. */
const withPhotos = () => {
  const { documentPhoto, documentPhotoType, selfie } = sampleRecord('test-merchant');
  return passedRecord({ documentPhoto, documentPhotoType, selfie, selfieEmbedding: Array.from({ length: 128 }, (_, i) => i / 128) });
};
const IMAGE_FIELDS = ['documentPhoto', 'documentPhotoType', 'selfie', 'selfieEmbedding'];

/**
 * A verification record sealed in two parts: the claims apart from the images, each under its own context bound to
 * the record id, so that the login and the credential issuer read the claims without unsealing a photo, the evidence
 * report reads both, and rows sealed whole before the split are still read (whole) until retention removes them.
 */
describe('verification records: claims sealed apart from the images', () => {
  let t: TestApp;
  let records: VerificationRecordsService;
  let box: SecretBox;
  /** The contexts SecretBox decrypted under while `run` ran, of the record `id` only. */
  const unsealed = async (id: string, run: () => Promise<unknown>) => {
    const spy = jest.spyOn(box, 'decrypt');
    try {
      await run();
      return spy.mock.calls.map(([, context]) => context).filter((context) => context.endsWith(id));
    } finally {
      spy.mockRestore();
    }
  };
  const rowOf = async (id: string) =>
    (
      (await t.dataSource.query('SELECT sealed, sealed_claims, key_id FROM verification_records WHERE id = $1', [id])) as {
        sealed: string;
        sealed_claims: string | null;
        key_id: string;
      }[]
    )[0];

  beforeAll(async () => {
    t = await startTestApp();
    records = t.app.get(VerificationRecordsService);
    box = t.app.get(SecretBox);
  });
  afterAll(() => t?.close());

  it('stores two sealed parts under one key; the whole record and its claims read back, the claims without unsealing an image', async () => {
    const id = randomUUID();
    const record = withPhotos();
    await records.store(id, record);
    const row = await rowOf(id);
    expect(row.sealed.startsWith(`v1.${row.key_id}.`)).toBe(true);
    expect(row.sealed_claims!.startsWith(`v1.${row.key_id}.`)).toBe(true);
    // The images are the bulk: the claims part is a small fraction of the row.
    expect(row.sealed_claims!.length * 5).toBeLessThan(row.sealed.length);
    expect(JSON.stringify(row)).not.toContain('NORDMANN');

    let claims: Awaited<ReturnType<VerificationRecordsService['getClaims']>>;
    expect(await unsealed(id, async () => (claims = await records.getClaims(id)))).toEqual([claimsContext(id)]);
    const { documentPhoto: _p, documentPhotoType: _t, selfie: _s, selfieEmbedding: _e, ...rest } = record;
    expect(claims).toStrictEqual({ ...rest, faceStepRan: true });
    for (const field of IMAGE_FIELDS) expect([field, field in claims!]).toEqual([field, false]);

    expect(await unsealed(id, async () => expect(await records.get(id)).toStrictEqual(record))).toEqual([claimsContext(id), imagesContext(id)]);
    expect(await records.getForMerchant(id, record.clientId)).toStrictEqual(record);
  });

  it('a record without a face step: no selfie kept, and the claims say so', async () => {
    const id = randomUUID();
    const record = withPhotos();
    delete record.selfie;
    await records.store(id, record);
    expect((await records.getClaims(id))!.faceStepRan).toBe(false);
    expect(await records.get(id)).toStrictEqual(record);
  });

  it("another merchant's, an unknown and an expired record come back as nothing, and nothing is unsealed for them", async () => {
    const id = randomUUID();
    await records.store(id, withPhotos());
    expect(await unsealed(id, async () => expect(await records.getForMerchant(id, 'another-merchant')).toBeUndefined())).toEqual([]);
    expect(await records.getClaims(randomUUID())).toBeUndefined();
    await t.dataSource.query(`UPDATE verification_records SET delete_after = now() - interval '1 second' WHERE id = $1`, [id]);
    expect(await unsealed(id, async () => expect(await records.getClaims(id)).toBeUndefined())).toEqual([]);
    expect(await records.get(id)).toBeUndefined();
  });

  it('refuses parts swapped between the columns, a part of another record, and a split row passed off as one sealed whole', async () => {
    const [a, b, c, d] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    for (const id of [a, b, c, d]) await records.store(id, withPhotos());
    await t.dataSource.query('UPDATE verification_records SET sealed = sealed_claims, sealed_claims = sealed WHERE id = $1', [a]);
    await expect(records.getClaims(a)).rejects.toThrow(SecretBoxError);
    await expect(records.get(a)).rejects.toThrow(SecretBoxError);
    await t.dataSource.query('UPDATE verification_records SET sealed_claims = (SELECT sealed_claims FROM verification_records WHERE id = $2) WHERE id = $1', [
      b,
      c,
    ]);
    await expect(records.getClaims(b)).rejects.toThrow(SecretBoxError);
    await expect(records.getForMerchant(b, 'test-merchant')).rejects.toThrow(SecretBoxError);
    await t.dataSource.query('UPDATE verification_records SET sealed_claims = NULL WHERE id = $1', [d]);
    await expect(records.getClaims(d)).rejects.toThrow(SecretBoxError);
    await expect(records.get(d)).rejects.toThrow(SecretBoxError);
    // The untouched record still reads.
    expect((await records.getClaims(c))!.result).toBe('pass');
  });

  it('reads a row sealed whole before the split by its one part, every reader, and leaves it as it was', async () => {
    const id = randomUUID();
    const record = withPhotos();
    const sealed = box.encrypt(JSON.stringify(record), wholeRecordContext(id));
    await t.dataSource.query(
      `INSERT INTO verification_records (id, client_id, sealed, key_id, delete_after) VALUES ($1, $2, $3, $4, now() + interval '1 day')`,
      [id, record.clientId, sealed, box.keyIdOf(sealed)],
    );
    const { documentPhoto: _p, documentPhotoType: _t, selfie: _s, selfieEmbedding: _e, ...rest } = record;
    expect(await unsealed(id, async () => expect(await records.getClaims(id)).toStrictEqual({ ...rest, faceStepRan: true }))).toEqual([wholeRecordContext(id)]);
    expect(await records.get(id)).toStrictEqual(record);
    expect(await records.getForMerchant(id, record.clientId)).toStrictEqual(record);
    expect(await records.getForMerchant(id, 'another-merchant')).toBeUndefined();
    expect(await rowOf(id)).toEqual({ sealed, sealed_claims: null, key_id: box.keyIdOf(sealed) });
  });

  it('an offer and a credential request unseal the claims of the record and never its images', async () => {
    const vci = vciClient(t);
    let made: Awaited<ReturnType<typeof offerFor>> | undefined;
    const id = () => made!.recordId;
    const contexts: string[] = [];
    const spy = jest.spyOn(box, 'decrypt');
    try {
      made = await offerFor(t, withPhotos());
      const offer = (await (await fetch(made.offerUri)).json()) as { grants: Record<string, { 'pre-authorized_code': string }> };
      const key = await testKey();
      const token = await vci.token(key, {
        grant_type: PRE_AUTH,
        'pre-authorized_code': offer.grants[PRE_AUTH]['pre-authorized_code'],
        tx_code: made.offer.txCode,
      });
      expect(token.status).toBe(200);
      const { access_token } = (await token.json()) as { access_token: string };
      expect((await vci.credential(key, access_token, await vci.nonce())).status).toBe(200);
      contexts.push(...spy.mock.calls.map(([, context]) => context).filter((context) => context.endsWith(id())));
    } finally {
      spy.mockRestore();
    }
    expect(contexts.length).toBeGreaterThanOrEqual(2);
    expect(new Set(contexts)).toEqual(new Set([claimsContext(id())]));
  });

  it('erasure and the purge delete both parts with the row', async () => {
    const [erased, kept, expiring] = [randomUUID(), randomUUID(), randomUUID()];
    for (const id of [erased, kept, expiring]) await records.store(id, withPhotos());
    expect(await records.erase(erased)).toBe(true);
    expect(await rowOf(erased)).toBeUndefined();
    expect(await records.getClaims(erased)).toBeUndefined();
    expect(await records.get(erased)).toBeUndefined();
    expect(await records.erase(erased)).toBe(false);

    const clock = t.app.get(Clock);
    await t.dataSource.query(`UPDATE verification_records SET delete_after = $2 WHERE id = $1`, [expiring, new Date(clock.now().getTime() + 1000)]);
    clock.advance(2000);
    try {
      expect(await records.getClaims(expiring)).toBeUndefined();
      expect(await records.purge()).toBeGreaterThanOrEqual(1);
    } finally {
      clock.advance(-2000);
    }
    expect(await rowOf(expiring)).toBeUndefined();
    expect((await records.getClaims(kept))!.result).toBe('pass');
  });
});
