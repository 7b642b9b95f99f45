/** Expiry policy, link certificates and CRL revocation (9303-12 §7), exercised with generated PKIs. */
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import {
  verifyDocument,
  TrustStore,
  DocumentCertificate,
  STATUS,
  createSpecimenAuthority,
  issueSpecimenDocument,
  issueSpecimenCrl,
  generateSpecimenKeyPair,
  buildSod,
  encodeDg1,
  buildTd3,
  SPECIMEN_MRZ_FIELDS,
} from '@identity-broker/icao9303';

const day = 86400_000;
const T0 = new Date('2020-01-01T00:00:00Z');

describe('expiry policy (README "Expiry policy")', () => {
  // CSCA valid 2020–2030, DS valid 2020–2021
  let authority: Awaited<ReturnType<typeof createSpecimenAuthority>>;
  beforeAll(async () => {
    authority = await createSpecimenAuthority({ notBefore: T0, dsValidityYears: 1, cscaValidityYears: 10 });
  });
  const issue = (signingTime: Date) => issueSpecimenDocument(authority, { signingTime, activeAuthentication: false });

  it('expired DS is accepted for a document signed inside the DS validity', async () => {
    const doc = await issue(new Date('2020-06-01'));
    const r = verifyDocument({ sod: doc.sod, dataGroups: doc.dataGroups, trustStore: authority.trustStore(), at: new Date('2024-01-01') });
    expect(r.checks.certificateChain).toMatchObject({ ok: true, signingReferenceSource: 'signingTime' });
    expect(r.status).toBe(STATUS.PASS);
  });
  it('document claiming to be signed after the DS expired → CHAIN', async () => {
    const doc = await issue(new Date('2022-06-01'));
    const r = verifyDocument({ sod: doc.sod, dataGroups: doc.dataGroups, trustStore: authority.trustStore(), at: new Date('2024-01-01') });
    expect(r.status).toBe(STATUS.BAD_COUNTRY_SIGNER_CHAIN);
  });
  it('signingTime in the future of the verification time is ignored (verification time used)', async () => {
    const doc = await issue(new Date('2020-06-01'));
    const r = verifyDocument({ sod: doc.sod, trustStore: authority.trustStore(), at: new Date('2020-03-01') });
    expect(r.checks.certificateChain.signingReferenceSource).toBe('verificationTime');
    expect(r.status).toBe(STATUS.PASS);
  });
  it('expired CSCA → CHAIN even for a document signed while it was valid', async () => {
    const doc = await issue(new Date('2020-06-01'));
    const r = verifyDocument({ sod: doc.sod, trustStore: authority.trustStore(), at: new Date('2031-01-01') });
    expect(r.status).toBe(STATUS.BAD_COUNTRY_SIGNER_CHAIN);
    expect(r.failures.map((f) => f.reason).join()).toMatch(/not valid at 2031/);
  });
  it('verification before the DS existed → CHAIN', async () => {
    const doc = await issue(new Date('2020-06-01'));
    expect(verifyDocument({ sod: doc.sod, trustStore: authority.trustStore(), at: new Date('2019-06-01') }).status).toBe(STATUS.BAD_COUNTRY_SIGNER_CHAIN);
  });
});

describe('CRL revocation (9303-12 §7.1.4)', () => {
  it('a DS listed on a loaded CRL → CHAIN; an unrelated serial does not matter', async () => {
    const authority = await createSpecimenAuthority();
    const doc = await issueSpecimenDocument(authority, { activeAuthentication: false });
    const clean = authority.trustStore();
    clean.addCrl(await issueSpecimenCrl(authority, ['7777']));
    const ok = verifyDocument({ sod: doc.sod, trustStore: clean });
    expect(ok.status).toBe(STATUS.PASS);
    expect(ok.checks.certificateChain.revocationChecked).toBe(true);
    const revoked = authority.trustStore();
    revoked.addCrl(await issueSpecimenCrl(authority, ['02']));
    const r = verifyDocument({ sod: doc.sod, trustStore: revoked });
    expect(r.status).toBe(STATUS.BAD_COUNTRY_SIGNER_CHAIN);
    expect(r.failures[0].reason).toMatch(/revoked/);
  });
});

describe('link certificates (9303-12 §7.1.1.2)', () => {
  it('DS under a new CSCA key verifies through a link certificate from the old, trusted CSCA', async () => {
    x509.cryptoProvider.set(webcrypto as never);
    const alg = { name: 'ECDSA', hash: 'SHA-256' };
    const name = 'C=UT, O=Link Test, CN=Link CSCA';
    const [oldKeys, newKeys, dsKeys] = await Promise.all([generateSpecimenKeyPair('EC'), generateSpecimenKeyPair('EC'), generateSpecimenKeyPair('EC')]);
    const notBefore = new Date(Date.now() - day);
    const notAfter = new Date(Date.now() + 3650 * day);
    const ext = [new x509.BasicConstraintsExtension(true, 0, true)];
    const oldCsca = await x509.X509CertificateGenerator.createSelfSigned({
      serialNumber: '10',
      name,
      notBefore,
      notAfter,
      keys: oldKeys.cryptoKeys as never,
      signingAlgorithm: alg,
      extensions: ext,
    });
    const link = await x509.X509CertificateGenerator.create({
      serialNumber: '11',
      subject: name,
      issuer: name,
      notBefore,
      notAfter,
      publicKey: newKeys.cryptoKeys.publicKey as never,
      signingKey: oldKeys.cryptoKeys.privateKey as never,
      signingAlgorithm: alg,
      extensions: ext,
    });
    const ds = await x509.X509CertificateGenerator.create({
      serialNumber: '12',
      subject: 'C=UT, O=Link Test, CN=Link DS',
      issuer: name,
      notBefore,
      notAfter,
      publicKey: dsKeys.cryptoKeys.publicKey as never,
      signingKey: newKeys.cryptoKeys.privateKey as never,
      signingAlgorithm: alg,
    });
    const dataGroups = new Map([[1, encodeDg1(buildTd3(SPECIMEN_MRZ_FIELDS))]]);
    const sod = buildSod({ dataGroups, signer: { certificate: DocumentCertificate.fromDer(new Uint8Array(ds.rawData)), privateKey: dsKeys.privateKey } });

    const withoutLink = new TrustStore();
    withoutLink.addCsca(new Uint8Array(oldCsca.rawData));
    expect(verifyDocument({ sod, dataGroups, trustStore: withoutLink }).status).toBe(STATUS.BAD_COUNTRY_SIGNER_CHAIN);

    const withLink = new TrustStore();
    withLink.addCsca(new Uint8Array(oldCsca.rawData));
    withLink.addLinkCertificate(new Uint8Array(link.rawData));
    const r = verifyDocument({ sod, dataGroups, trustStore: withLink });
    expect(r.status).toBe(STATUS.PASS);
    expect(r.checks.certificateChain.path.map((p) => p.serialNumber)).toEqual(['12', '11', '10']);
  });
});
