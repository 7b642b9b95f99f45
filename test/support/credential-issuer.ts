import { randomUUID } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { CredentialOffersService } from '../../src/credential-issuer/offer/credential-offers.service.js';
import type { VerificationRecordData } from '../../src/broker/spi/document-evidence/verification-record.js';
import { VerificationRecordsService } from '../../src/schemes/document-verifier/records/verification-records.service.js';
import type { TestApp } from './test-app.js';

/** A passed verification as the document verifier stores it (a Norwegian passport), for tests of what comes after. */
export function passedRecord(overrides: Partial<VerificationRecordData> = {}): VerificationRecordData {
  return {
    clientId: 'test-merchant',
    documentPhoto: '',
    documentPhotoType: 'image/jpeg',
    selfieEmbedding: [],
    claims: {
      document_type: 'PASSPORT',
      issuing_country: 'NOR',
      interpreted_issuing_country: 'Norway',
      document_number: 'FH254787',
      primary_identifier: 'NORDMANN',
      secondary_identifier: 'KARE',
      name: 'KÅRE NORDMANN',
      nationality: 'NOR',
      interpreted_nationality: 'Norway',
      birthdate: '03.05.1990',
      personal_number: '03059012345',
      gender: 'MALE',
      date_of_expiry: '01.01.2034',
      facematch_level: 8,
      authentication_sources: ['SDK_NFC', 'SDK_FACESCAN'],
      authentication_result: 'pass',
      given_name: 'KARE',
      family_name: 'NORDMANN',
    },
    subject: 'subject-of-the-test-person',
    birthDate: '1990-05-03',
    result: 'pass',
    explanations: [],
    facematchLevel: 8,
    eidasHigh: true,
    completedAt: new Date().toISOString(),
    failures: [],
    ...overrides,
  };
}

/** Stores a record and makes an offer for it, as the broker page or the app's result screen would. */
export async function offerFor(t: TestApp, record = passedRecord()) {
  const id = randomUUID();
  await t.app.get(VerificationRecordsService).store(id, record);
  const offer = await t.app.get(CredentialOffersService).offerFor(id, record.clientId);
  if (!offer) throw new Error('no offer was made');
  const offerUri = decodeURIComponent(/credential_offer_uri=([^&]+)/.exec(offer.link)![1]);
  return { recordId: id, offer, offerUri };
}

export interface TestKey {
  privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
  jwk: JWK;
  jkt: string;
}

export async function testKey(alg = 'ES256'): Promise<TestKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = await exportJWK(publicKey);
  return { privateKey, jwk, jkt: await calculateJwkThumbprint(jwk) };
}

/** A DPoP proof (RFC 9449 §4.2) with every member overridable, for the attacks. */
export async function dpopProof(
  key: TestKey,
  htm: string,
  htu: string,
  extra: { ath?: string; iat?: number; jti?: string; header?: Record<string, unknown> } = {},
): Promise<string> {
  return new SignJWT({ htm, htu, jti: extra.jti ?? randomUUID(), ...(extra.ath ? { ath: extra.ath } : {}) })
    .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: key.jwk, ...extra.header })
    .setIssuedAt(extra.iat ?? Math.floor(Date.now() / 1000))
    .sign(key.privateKey);
}

/** A key proof (OpenID4VCI 1.0 Appendix F.1) with every member overridable. */
export async function keyProof(
  key: TestKey,
  aud: string,
  nonce: string | undefined,
  extra: { iat?: number; header?: Record<string, unknown>; payload?: Record<string, unknown> } = {},
): Promise<string> {
  return new SignJWT({ aud, ...(nonce === undefined ? {} : { nonce }), ...extra.payload })
    .setProtectedHeader({ alg: 'ES256', typ: 'openid4vci-proof+jwt', jwk: key.jwk, ...extra.header })
    .setIssuedAt(extra.iat ?? Math.floor(Date.now() / 1000))
    .sign(key.privateKey);
}
