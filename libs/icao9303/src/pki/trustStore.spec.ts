/** The trust store: master lists, CRLs and CSCA files of PROVENANCE.md §5 (split from passiveAuth.spec.ts). */
import { verifyDocument, TrustStore, STATUS, Icao9303Error } from '@identity-broker/icao9303';
import { fixture } from '../../test/fixtures.js';

const AT = new Date('2025-06-01T00:00:00Z');
const ML = 'masterlists/DE_ML_2026-05-28-08-28-45.ml';
const ML_ANCHOR = 'masterlists/DE_ROOT_CA_CSCA07.cer';

const own = (country: string) => {
  const s = new TrustStore();
  s.addCsca(fixture(`real-documents/csca/CSCA_${country}.cer`));
  return s;
};
const trusting = (path: string) => {
  const s = new TrustStore();
  s.addCsca(fixture(path));
  return s;
};

describe('master lists and CRLs (PROVENANCE §5)', () => {
  it('German master list: 588 certificates, signer issued by DE_ROOT_CA_CSCA07', () => {
    const store = new TrustStore();
    const report = store.addMasterList(fixture(ML), [fixture(ML_ANCHOR)]);
    expect(report.certificates).toHaveLength(588);
    expect(report.skipped).toEqual([]);
    expect(report.signer.subject).toMatch(/Master List Signer/);
  });
  it('refuses the German list with the Dutch CSCA as anchor', () => {
    expect(() => new TrustStore().addMasterList(fixture(ML), [fixture('masterlists/CSCA_NL_serial6_2021.cer')])).toThrow(
      expect.objectContaining({ code: 'MASTER_LIST_INVALID' }),
    );
  });
  it('refuses a master list whose content was altered', () => {
    const ml = fixture(ML).slice();
    ml[400_000] ^= 0x01;
    expect(() => new TrustStore().addMasterList(ml, [fixture(ML_ANCHOR)])).toThrow(Icao9303Error);
  });
  it('Dutch master list: 306 certificates, signer chains to CSCA NL serial 6', () => {
    const report = new TrustStore().addMasterList(
      fixture('masterlists/NL_MASTERLIST_20211207.mls'),
      [fixture('masterlists/CSCA_NL_serial6_2021.cer')],
      new Date('2021-12-17'),
    );
    expect(report.certificates).toHaveLength(306);
  });
  it('Dutch master list is not signed under NL_ROOT_CA.cer (CSCA NL serial 7, 2024)', () => {
    expect(() => new TrustStore().addMasterList(fixture('masterlists/NL_MASTERLIST_20211207.mls'), [fixture('masterlists/NL_ROOT_CA.cer')])).toThrow(
      expect.objectContaining({ code: 'MASTER_LIST_INVALID' }),
    );
  });
  it('Colombian CRL verifies with the CO CSCA of the German list (15 revoked serials)', () => {
    const store = new TrustStore();
    store.addMasterList(fixture(ML), [fixture(ML_ANCHOR)]);
    expect(store.addCrl(fixture('masterlists/COL.crl')).revoked).toHaveLength(15);
  });
  it('a CRL without a trusted issuer is refused', () => {
    expect(() => own('DE').addCrl(fixture('masterlists/COL.crl'))).toThrow(expect.objectContaining({ code: 'CRL_MALFORMED' }));
  });
  it('accepts PEM (several certificates in one file)', () => {
    const pem = ['AT', 'DE']
      .map(
        (c) =>
          `-----BEGIN CERTIFICATE-----\n${Buffer.from(fixture(`real-documents/csca/CSCA_${c}.cer`))
            .toString('base64')
            .replace(/.{64}/g, '$&\n')}\n-----END CERTIFICATE-----\n`,
      )
      .join('');
    const store = new TrustStore();
    expect(store.addCsca(new Uint8Array(Buffer.from(pem)))).toHaveLength(2);
    expect(verifyDocument({ sod: fixture('real-documents/sod/EF_SOD_DE.bin'), trustStore: store, at: AT }).status).toBe(STATUS.PASS);
  });
  it('uses an explicitly given DS certificate', () => {
    const r = verifyDocument({
      sod: fixture('bsi-tr03105-5/EF_SOD.bin'),
      documentSignerCertificate: fixture('bsi-tr03105-5/DSC_HJP_PB_DS_0142fd5cf927.cer'),
      trustStore: trusting('bsi-tr03105-5/DSC_HJP_PB_DS_0142fd5cf927.cer'),
      at: new Date('2014-06-01'),
    });
    expect(r.status).toBe(STATUS.PASS);
    const wrong = verifyDocument({
      sod: fixture('bsi-tr03105-5/EF_SOD.bin'),
      documentSignerCertificate: fixture('etsi-tr103200/DSC_ETSI_DS_0130846f2b3e.cer'),
      trustStore: trusting('etsi-tr103200/DSC_ETSI_DS_0130846f2b3e.cer'),
      at: new Date('2012-01-01'),
    });
    expect(wrong.status).toBe(STATUS.BAD_DOCUMENT_SIGNATURE);
  });
  it('loads a folder of CSCA certificates', () => {
    const store = new TrustStore();
    expect(store.addCscaPath('test/fixtures/icao/real-documents/csca')).toHaveLength(7);
    expect(verifyDocument({ sod: fixture('real-documents/sod/EF_SOD_FI.bin'), trustStore: store, at: AT }).status).toBe(STATUS.PASS);
  });
});
