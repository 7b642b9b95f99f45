import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { X509Certificate } from 'node:crypto';
import { createTestSigner, MDL_DOCTYPE, PID_MDOC_DOCTYPE, PID_SD_JWT_VCT, type TestSigner } from '@identity-broker/eu-wallet';
import type { AppConfig } from '../../../config/load-config.js';
import { loadWalletConfig } from '../config/wallet-config.js';
import type { WalletTestAuthoritiesService } from '../trust/wallet-test-authorities.service.js';
import { WalletTrustService } from '../trust/wallet-trust.service.js';
import { reusedIdentityVerification, walletCredentialVerification, type PresentedCredential } from './wallet-verification.js';

const signerOf = (s: TestSigner) => ({ leaf: new X509Certificate(s.chain[0]), anchor: new X509Certificate(s.root) });
const PRESENTED = new Date('2026-11-29T10:15:30.250Z');
const TX = 'wallet-transaction-id-0123456789ab';
const presentationChecks = [
  { check_method: 'vcrypt', check_id: `${TX}.issuer-signature`, time: '2026-11-29T10:15:30.250Z' },
  { check_method: 'auth', check_id: `${TX}.key-binding`, time: '2026-11-29T10:15:30.250Z' },
];

describe('what a wallet login states in verified_claims', () => {
  let pidProvider: TestSigner;
  let iaca: TestSigner;
  let ownIssuer: TestSigner;

  beforeAll(async () => {
    [pidProvider, iaca, ownIssuer] = await Promise.all([
      createTestSigner({ rootName: 'Test PID Provider CA', signerName: 'Test PID Provider', country: 'AT' }),
      createTestSigner({ rootName: 'Svenska IACA', signerName: 'Document Signer 7', country: 'SE' }),
      createTestSigner({ rootName: 'Our issuer CA', signerName: 'Our issuer' }),
    ]);
  });

  const credential = (over: Partial<PresentedCredential>): PresentedCredential => ({
    transactionId: TX,
    presentedAt: PRESENTED,
    type: PID_SD_JWT_VCT,
    signer: signerOf(pidProvider),
    test: false,
    ...over,
  });

  it('a PID as SD-JWT VC: an electronic record of its vct, from its issuer, signed and held by the wallet, checked now', () => {
    const issuedAt = new Date('2026-01-02T03:04:05Z');
    const expiresAt = new Date('2027-01-02T03:04:05Z');
    expect(walletCredentialVerification(credential({ issuingCountry: 'AUT', issuedAt, expiresAt }))).toEqual({
      time: '2026-11-29T10:15:30.250Z',
      process: TX,
      test: false,
      evidence: [
        {
          type: 'electronic_record',
          check_details: presentationChecks,
          record: {
            type: PID_SD_JWT_VCT,
            // The certificates' organisation (the test PKI's is "Test"); the credential's issuing country.
            source: { name: 'Test', country_code: 'AUT' },
            created_at: '2026-01-02T03:04:05Z',
            date_of_expiry: '2027-01-02',
          },
        },
      ],
    });
  });

  it("a PID as mdoc: its doctype; Germany's D is DEU in country_code; dates it lacks stay absent", () => {
    const v = walletCredentialVerification(credential({ type: PID_MDOC_DOCTYPE, issuingCountry: 'D' }));
    expect(v.evidence).toEqual([
      {
        type: 'electronic_record',
        check_details: presentationChecks,
        record: { type: 'eu.europa.ec.eudi.pid.1', source: { name: 'Test', country_code: 'DEU' } },
      },
    ]);
  });

  it("an mDL: its doctype; without an issuing country in the answer, the signing certificate's (C=SE: SWE)", () => {
    const signedAt = new Date('2026-03-01T00:00:00Z');
    const validUntil = new Date('2027-03-01T00:00:00Z');
    const v = walletCredentialVerification(credential({ type: MDL_DOCTYPE, signer: signerOf(iaca), issuedAt: signedAt, expiresAt: validUntil }));
    expect(v.evidence[0]).toMatchObject({
      type: 'electronic_record',
      record: {
        type: 'org.iso.18013.5.1.mDL',
        source: { name: 'Test', country_code: 'SWE' },
        created_at: '2026-03-01T00:00:00Z',
        date_of_expiry: '2027-03-01',
      },
    });
  });

  it('a date past what the schema can write (year 10000 and on) is left out rather than written wrong', () => {
    const record = walletCredentialVerification(credential({ expiresAt: new Date(Date.UTC(10_000, 0, 1)), issuedAt: new Date(NaN) })).evidence[0];
    expect(record).toMatchObject({ record: { type: PID_SD_JWT_VCT } });
    expect(record).not.toHaveProperty('record.date_of_expiry');
    expect(record).not.toHaveProperty('record.created_at');
  });

  describe("the service's own credential", () => {
    const reused = (claims: Record<string, unknown>, verifiedAt: string | null = '2026-10-01') =>
      reusedIdentityVerification({
        ...credential({ type: 'https://broker.example/vct/verified-document-identity', signer: signerOf(ownIssuer), issuingCountry: 'UTO' }),
        claims,
        verifiedAt: verifiedAt ?? undefined,
      });
    const PASSPORT = { document_type: 'PASSPORT', issuing_country: 'UTO', document_number: 'L898902C3', date_of_expiry: '15.04.2032', facematch_level: 7 };

    it('states the original document verification: the document, its checks, on the day it was made; the reuse beside it', () => {
      expect(reused(PASSPORT)).toEqual({
        time: '2026-10-01T00:00:00Z',
        process: TX,
        test: false,
        reused: { credential: 'reused_identity', presentedAt: '2026-11-29T10:15:30.250Z' },
        evidence: [
          {
            type: 'document',
            document_details: { type: 'passport', document_number: 'L898902C3', date_of_expiry: '2032-04-15', issuer: { country_code: 'UTO' } },
            check_details: [
              { check_method: 'vcrypt', check_id: `${TX}.original.passive-authentication`, time: '2026-10-01T00:00:00Z' },
              { check_method: 'bvr', check_id: `${TX}.original.face-match`, time: '2026-10-01T00:00:00Z' },
              { check_method: 'bvr', check_id: `${TX}.original.liveness`, time: '2026-10-01T00:00:00Z' },
            ],
          },
        ],
      });
    });

    it('a face match level of 0 (no face match passed) states the chip check alone', () => {
      const [evidence] = reused({ ...PASSPORT, facematch_level: 0 }).evidence;
      expect(evidence).toMatchObject({ type: 'document', check_details: [{ check_method: 'vcrypt', check_id: `${TX}.original.passive-authentication` }] });
      expect((evidence as { check_details: unknown[] }).check_details).toHaveLength(1);
    });

    it('a document type without a predefined value: an electronic record of our credential instead, checked now, at the original time', () => {
      const v = reused({ ...PASSPORT, document_type: 'CREW_MEMBER_CERTIFICATE' });
      expect(v).toMatchObject({ time: '2026-10-01T00:00:00Z', process: TX, reused: { credential: 'reused_identity' } });
      expect(v.evidence).toEqual([
        {
          type: 'electronic_record',
          check_details: presentationChecks,
          record: { type: 'https://broker.example/vct/verified-document-identity', source: { name: 'Test', country_code: 'UTO' } },
        },
      ]);
    });

    it('without verified_at the time of the original is unknown: the presentation time, and the record of our credential', () => {
      const v = reused(PASSPORT, null);
      expect([v.time, v.evidence[0].type]).toEqual(['2026-11-29T10:15:30.250Z', 'electronic_record']);
    });
  });

  describe('test anchors', () => {
    let dir: string;
    let configuredPid: TestSigner;
    beforeAll(async () => {
      configuredPid = await createTestSigner({ rootName: 'A configured PID Provider CA', signerName: 'A configured PID Provider' });
      dir = mkdtempSync(join(tmpdir(), 'wallet-test-anchors-'));
      writeFileSync(join(dir, 'pid.der'), configuredPid.root);
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    const trust = (isProduction: boolean, env: Record<string, string>, authorities: Partial<Record<'pidProvider' | 'iaca' | 'requestSigner', TestSigner>>) =>
      new WalletTrustService(
        { isProduction, schemes: { 'eu-wallet': loadWalletConfig(env, isProduction) } } as unknown as AppConfig,
        { get: async () => authorities } as unknown as WalletTestAuthoritiesService,
      );

    it("customer-test marks its generated PID provider and IACA as test anchors, not an operator's configured root", async () => {
      const anchors = await trust(false, { WALLET_PID_ANCHORS: join(dir, 'pid.der') }, { pidProvider, iaca, requestSigner: ownIssuer }).anchors();
      const isTest = (s: TestSigner) => anchors.testAnchors.has(signerOf(s).anchor.fingerprint256);
      expect([isTest(pidProvider), isTest(iaca), isTest(configuredPid)]).toEqual([true, true, false]);
    });

    it('production has no test anchors', async () => {
      expect((await trust(true, {}, {}).anchors()).testAnchors.size).toBe(0);
    });
  });
});
