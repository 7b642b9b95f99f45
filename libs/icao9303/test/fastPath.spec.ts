/**
 * The single-pass passive authentication path (DER reader, direct certificate signature checks, the DS
 * certificate cache, issuer lookup) agrees with the OpenSSL/schema path it replaced, and its timings reach
 * the diagnostics channel.
 */
import { X509Certificate } from 'node:crypto';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import {
  DocumentCertificate,
  parseSod,
  checkSignerSignature,
  verifyDocument,
  TrustStore,
  TIMING_CHANNEL,
  STATUS,
  type StepTiming,
} from '@identity-broker/icao9303';
import { fixture, flipBit } from './fixtures.js';

const vectors = [
  { name: 'AT brainpoolP256r1', sod: 'real-documents/sod/EF_SOD_AT.bin', csca: 'real-documents/csca/CSCA_AT.cer' },
  { name: 'DE brainpoolP384r1', sod: 'real-documents/sod/EF_SOD_DE.bin', csca: 'real-documents/csca/CSCA_DE.cer' },
  { name: 'MY RSASSA-PSS', sod: 'real-documents/sod/EF_SOD_MY.bin', csca: 'real-documents/csca/CSCA_MY.cer' },
];

describe.each(vectors)('$name', (v) => {
  const ds = checkSignerSignature(parseSod(fixture(v.sod))).signer!;
  const csca = DocumentCertificate.fromDer(fixture(v.csca));

  it('the direct signature check agrees with X509Certificate.verify, also on a mutated certificate (RFC 5280 §6.1.3)', () => {
    expect(ds.signedBy(csca)).toBe(true);
    expect(new X509Certificate(ds.der).verify(csca.node.publicKey)).toBe(true);
    // a flipped bit inside tbsCertificate (the last byte of the subject public key) breaks both
    const spki = Buffer.from(ds.der).indexOf(Buffer.from(ds.publicKey.spki));
    const mutated = DocumentCertificate.fromDer(flipBit(ds.der, spki + ds.publicKey.spki.length - 1));
    expect(mutated.signedBy(csca)).toBe(false);
    expect(new X509Certificate(mutated.der).verify(csca.node.publicKey)).toBe(false);
  });

  it('the key taken from the certificate equals a fresh import of its SPKI', () => {
    const exported = (c: DocumentCertificate) => c.publicKey.key!.export({ format: 'der', type: 'spki' });
    expect(exported(ds)).toEqual(new X509Certificate(ds.der).publicKey.export({ format: 'der', type: 'spki' }));
  });
});

describe('Document Signer certificate cache', () => {
  it('returns one object per DER and forgets on request', () => {
    const der = checkSignerSignature(parseSod(fixture('real-documents/sod/EF_SOD_AT.bin'))).signer!.der;
    const a = DocumentCertificate.fromSod(der);
    expect(DocumentCertificate.fromSod(der.slice())).toBe(a);
    DocumentCertificate.clearSignerCache();
    expect(DocumentCertificate.fromSod(der)).not.toBe(a);
  });

  it('keeps its own copy: changing the caller buffer afterwards changes nothing', () => {
    const der = checkSignerSignature(parseSod(fixture('real-documents/sod/EF_SOD_AT.bin'))).signer!.der.slice();
    const cert = DocumentCertificate.fromDer(der);
    const before = cert.summary();
    der.fill(0);
    expect(cert.summary()).toEqual(before);
    expect(cert.subjectDer[0]).toBe(0x30);
  });
});

describe('names', () => {
  it('match as received, and re-encoded when only the encoding differs (RFC 5280 §7.1)', () => {
    const c = DocumentCertificate.fromDer(fixture('real-documents/csca/CSCA_AT.cer'));
    const raw = c.subjectDer;
    expect(raw[1]).toBeLessThan(0x80);
    const longForm = new Uint8Array([0x30, 0x81, raw[1], ...raw.subarray(2)]); // non-minimal length (BER)
    expect(c.subjectDerEquals(raw)).toBe(true);
    expect(c.subjectDerEquals(longForm)).toBe(true);
    expect(c.subjectDerEquals(new Uint8Array([0x30, 0x03, 0x02, 0x01, 0x00]))).toBe(false);
  });
});

describe('trust store issuer lookup', () => {
  it('finds the CSCA among the anchors of a whole master list', () => {
    const store = new TrustStore();
    store.addMasterList(fixture('masterlists/NL_MASTERLIST_20211207.mls'), [fixture('masterlists/CSCA_NL_serial6_2021.cer')], new Date('2021-12-17'));
    store.addCsca(fixture('real-documents/csca/CSCA_AT.cer'));
    const r = verifyDocument({
      sod: fixture('real-documents/sod/EF_SOD_AT.bin'),
      dataGroups: new Map([[14, fixture('real-documents/dg/EF_DG14_AT.bin')]]),
      trustStore: store,
      at: new Date('2025-06-01'),
    });
    expect(r.status).toBe(STATUS.PASS);
    expect(r.checks.certificateChain.path).toHaveLength(2);
  });
});

describe('timings', () => {
  it('verifyDocument publishes passive authentication on the diagnostics channel, names and durations only', () => {
    const seen: StepTiming[] = [];
    const listener = (m: unknown) => seen.push(m as StepTiming);
    subscribe(TIMING_CHANNEL, listener);
    try {
      const trustStore = new TrustStore();
      trustStore.addCsca(fixture('real-documents/csca/CSCA_AT.cer'));
      verifyDocument({ sod: fixture('real-documents/sod/EF_SOD_AT.bin'), trustStore, at: new Date('2025-06-01') });
    } finally {
      unsubscribe(TIMING_CHANNEL, listener);
    }
    expect(seen.map((s) => s.step)).toEqual(['pa']);
    expect(Object.keys(seen[0]).sort()).toEqual(['ms', 'step']);
    expect(seen[0].ms).toBeGreaterThan(0);
  });
});
