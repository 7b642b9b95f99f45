import { createHash } from 'node:crypto';
import {
  parseEfCom,
  parseDg2,
  parseDg11,
  parseDg12,
  parseDg14,
  parseDg15,
  parseCardSecurity,
  parseFaceRecord,
  parseLdsFile,
  parseSod,
  Icao9303Error,
} from '@identity-broker/icao9303';
import { fixture } from './fixtures.js';

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

describe('EF.COM (9303-10 §4.6.1)', () => {
  it('ICAO Part 10 example', () => {
    expect(parseEfCom(fixture('dg11-dg12-com/EF_COM_icao_p10.bin'))).toMatchObject({
      ldsVersionRaw: '0106',
      unicodeVersionRaw: '040000',
      tagList: [0x61, 0x75],
      dataGroups: [1, 2],
    });
  });
  it('NFCPassportReader', () => {
    expect(parseEfCom(fixture('dg11-dg12-com/EF_COM_nfcpassportreader.bin'))).toMatchObject({
      ldsVersion: '1.7',
      unicodeVersion: '4.0.0',
      dataGroups: [1, 2, 3, 7, 11, 12, 14, 15],
    });
  });
  it('BSI', () => {
    expect(parseEfCom(fixture('bsi-tr03105-5/EF_COM.bin'))).toMatchObject({ ldsVersion: '1.7', unicodeVersion: '4.0.0', dataGroups: [1, 2, 3, 4, 14] });
  });
  it('rejects a wrong outer tag', () => {
    const b = fixture('bsi-tr03105-5/EF_COM.bin').slice();
    b[0] = 0x61;
    expect(() => parseEfCom(b)).toThrow(expect.objectContaining({ code: 'LDS_MALFORMED' }));
  });
});

describe('DG2 face images (9303-10 §4.7.2)', () => {
  const cases: Array<[string, string, string, number?, number?]> = [
    ['dg2/EF_DG2_ISO19794-5_jpeg_gmrtd.bin', 'dg2/EF_DG2_ISO19794-5_jpeg_gmrtd_expected_face.jpg', 'JPEG', 148, 70],
    ['dg2/EF_DG2_ISO39794-5_AllFields.dat', 'dg2/EF_DG2_ISO39794-5_expected_face.jpg', 'JPEG2000', 413, 531],
    ['dg2/EF_DG2_ISO39794-5_MandFields.dat', 'dg2/EF_DG2_ISO39794-5_expected_face.jpg', 'JPEG2000', 413, 531],
  ];
  it.each(cases)('%s yields the expected image', (file, expected, type, w, h) => {
    const { faces } = parseDg2(fixture(file));
    expect(faces).toHaveLength(1);
    expect(sha(faces[0].imageData)).toBe(sha(fixture(expected)));
    expect(faces[0]).toMatchObject({ imageType: type, width: w, height: h });
  });
  it('BSI Datagroup2: JPEG 2000 in ISO 19794-5, at offset 84', () => {
    const dg2 = fixture('bsi-tr03105-5/Datagroup2.bin');
    const [face] = parseDg2(dg2).faces;
    expect(face.format).toBe('ISO19794-5');
    expect(face.imageType).toBe('JPEG2000');
    expect(sha(face.imageData)).toBe(sha(dg2.subarray(84)));
  });
  it.each([
    ['dg2/ISO19794-5_FAC_record_Test1.bin', 'dg2/ISO19794-5_FAC_record_Test1_expected_face.jpg'],
    ['dg2/ISO39794-5_record_AllFields.dat', 'dg2/ISO39794-5_record_expected_face.jpg'],
    ['dg2/ISO39794-5_record_MandFields.dat', 'dg2/ISO39794-5_record_expected_face.jpg'],
  ])('bare record %s', (file, expected) => {
    expect(sha(parseFaceRecord(fixture(file))[0].imageData)).toBe(sha(fixture(expected)));
  });
  it.each(['dg2/NEG_ISO19794-5_FAC_record_Test2_InvalidImage.bin', 'dg2/NEG_ISO39794-5_record_MandFields_InvalidImage.dat'])(
    'rejects invalid image %s',
    (file) => {
      expect(() => parseFaceRecord(fixture(file))).toThrow(expect.objectContaining({ code: 'BIOMETRIC_MALFORMED' }));
    },
  );
  it('rejects a truncated DG2', () => {
    expect(() => parseDg2(fixture('dg2/EF_DG2_ISO19794-5_jpeg_gmrtd.bin').subarray(0, 300))).toThrow(Icao9303Error);
  });
});

describe('DG11 (9303-10 §4.7.11)', () => {
  it('ICAO Part 10 A.5', () => {
    const d = parseDg11(fixture('dg11-dg12-com/EF_DG11_icao_p10_A5_fixed.bin'));
    expect(d.fullName).toMatchObject({ primaryIdentifier: 'SMITH', secondaryIdentifier: 'JOHN J' });
    expect(d.placeOfBirth).toBe('ANYTOWN,MN');
    expect(d.address).toBe('123 MAPLE RD,ANYTOWN,MN');
    expect(d.telephone).toBe('16125551212');
    expect(d.profession).toBe('TRAVEL AGENT');
  });
  const names = (f: string) => parseDg11(fixture(f)).otherNames.map((n) => [n.primaryIdentifier, n.secondaryIdentifier]);
  it('other names, nominal A0 wrapper', () => {
    expect(names('dg11-dg12-com/EF_DG11_othernames_A0_nominal.bin')).toEqual([
      ['SMITH', 'JOHN'],
      ['JOHN SMITH', ''],
    ]);
  });
  it('other names, tag list says A0 (deviation)', () => {
    expect(names('dg11-dg12-com/EF_DG11_othernames_A0_taglist_deviation.bin')).toEqual([
      ['SMITH', 'JOHN'],
      ['JOHN SMITH', ''],
    ]);
  });
  it('other names not wrapped in A0 (deviation)', () => {
    expect(names('dg11-dg12-com/EF_DG11_othernames_not_wrapped_deviation.bin')).toEqual([['SMITH', 'JOHN']]);
  });
  it('NFCPassportReader', () => {
    const d = parseDg11(fixture('dg11-dg12-com/EF_DG11_nfcpassportreader.bin'));
    expect(d.fullName?.raw).toBe('Test<<Tester');
    expect(d.fullDateOfBirth).toBe('19701201');
    expect(d.placeOfBirth).toBe('Northampton');
  });
});

describe('DG12 (9303-10 §4.7.12)', () => {
  it('personalisation date/time and system serial', () => {
    expect(parseDg12(fixture('dg11-dg12-com/EF_DG12_perso_datetime.bin'))).toMatchObject({
      personalizationDateTime: '20161115013612',
      personalizationSystemSerialNumber: 'N-4962',
    });
  });
  it('issuing authority, date of issue', () => {
    expect(parseDg12(fixture('dg11-dg12-com/EF_DG12_nfcpassportreader.bin'))).toMatchObject({ issuingAuthority: 'TESTER', dateOfIssue: '20180326' });
    expect(parseDg12(fixture('real-documents/dg/EF_DG12_FR.bin'))).toMatchObject({
      issuingAuthority: 'JAKARTA - AMBASSADE DE FRANCE EN INDONESIE',
      dateOfIssue: '20170905',
    });
  });
});

describe('DG14 / EF.CardSecurity security infos (9303-11 §9.2)', () => {
  it('BSI DG14: brainpoolP224r1 with explicit parameters, CA 3DES', () => {
    const d = parseDg14(fixture('bsi-tr03105-5/Datagroup14.bin'));
    expect(d.chipAuthenticationPublicKeys[0].publicKey).toMatchObject({ kind: 'EC', curve: 'brainpoolP224r1', explicitParameters: true });
    expect(d.chipAuthenticationInfos[0]).toMatchObject({ keyAgreement: 'ECDH', cipher: '3DES', version: 1 });
  });
  it.each([
    ['AT', 'brainpoolP256r1'],
    ['DE', 'brainpoolP256r1'],
    ['FI', 'brainpoolP384r1'],
    ['FR', 'prime256v1'],
    ['MY', 'brainpoolP256r1'],
  ])('real DG14 %s', (c, curve) => {
    expect(parseDg14(fixture(`real-documents/dg/EF_DG14_${c}.bin`)).chipAuthenticationPublicKeys[0].publicKey.curve).toBe(curve);
  });
  it('DE DG14 names keyId 0xC3', () => {
    expect(parseDg14(fixture('real-documents/dg/EF_DG14_DE.bin')).chipAuthenticationPublicKeys[0].keyId).toBe(0xc3);
  });
  it.each(['DE', 'FI'])('EF.CardSecurity %s: keys given by standardized domain parameters', (c) => {
    const cs = parseCardSecurity(fixture(`real-documents/cardsecurity/EF_CardSecurity_${c}.bin`));
    const keys = cs.securityInfos.filter((s) => s.type === 'ChipAuthenticationPublicKeyInfo');
    expect(keys.length).toBeGreaterThan(0);
    for (const k of keys) expect('publicKey' in k && k.publicKey.curve).toMatch(/^brainpool/);
  });
});

describe('DG15 (9303-10 §4.7.15)', () => {
  it('RSA-1024 (BSI, ETSI)', () => {
    expect(parseDg15(fixture('bsi-tr03105-5/Datagroup15.bin')).publicKey).toMatchObject({ kind: 'RSA', bits: 1024 });
    expect(parseDg15(fixture('etsi-tr103200/EF_DG15.bin')).publicKey).toMatchObject({ kind: 'RSA', bits: 1024 });
  });
  it('EC with explicit brainpoolP256r1 parameters', () => {
    expect(parseDg15(fixture('active-auth/ecdsa-dg15-parse-only/EF_DG15_ecdsa_brainpoolP256r1.bin')).publicKey).toMatchObject({
      kind: 'EC',
      curve: 'brainpoolP256r1',
      explicitParameters: true,
    });
  });
  it('typed error for garbage', () => {
    expect(() => parseDg15(new Uint8Array([0x6f, 0x03, 0x30, 0x01, 0x00]))).toThrow(Icao9303Error);
  });
});

describe('EF.SOD parsing (9303-10 §4.6.2)', () => {
  it.each([
    ['AT', 0, 'sha256'],
    ['DE', 1, 'sha384'],
    ['FI', 1, 'sha512'],
    ['UK', 1, 'sha256'],
    ['CN', 0, 'sha256'],
  ])('%s: LDSSecurityObject v%s, %s', (c, v, h) => {
    const sod = parseSod(fixture(`real-documents/sod/EF_SOD_${c}.bin`));
    expect(sod.ldsSecurityObject).toMatchObject({ version: v, hashAlgorithm: h });
  });
  it('DE v1 carries ldsVersionInfo 0108/040000', () => {
    expect(parseSod(fixture('real-documents/sod/EF_SOD_DE.bin')).ldsSecurityObject).toMatchObject({ ldsVersion: '0108', unicodeVersion: '040000' });
  });
  it.each(['bsi-tr03105-5/NEG_EF_SOD_trailing_byte.bin', 'real-documents/negative/EF_SOD_UK_malformed_lds_length.bin'])('strict parse error for %s', (f) => {
    expect(() => parseSod(fixture(f))).toThrow(expect.objectContaining({ code: 'SOD_MALFORMED' }));
  });
  it('parseLdsFile dispatches on the tag', () => {
    expect(parseLdsFile(fixture('bsi-tr03105-5/EF_COM.bin')).kind).toBe('EF.COM');
    expect(parseLdsFile(fixture('bsi-tr03105-5/EF_SOD.bin')).kind).toBe('EF.SOD');
    expect(() => parseLdsFile(new Uint8Array([0x99, 0]))).toThrow(Icao9303Error);
  });
});
