/** Specimen generator: a generated document passes; each derived failure gives its status. */
import {
  verifyDocument,
  parseDg2,
  parseDg11,
  parseDg15,
  parseEfCom,
  parseMrz,
  STATUS,
  Icao9303Error,
  createSpecimenAuthority,
  issueSpecimenDocument,
  deriveSpecimenCase,
  signActiveAuthChallenge,
  type SpecimenFailureKind,
  type SpecimenAuthority,
} from '@identity-broker/icao9303';
import { fixture } from './fixtures.js';

const face = fixture('dg2/EF_DG2_ISO19794-5_jpeg_gmrtd_expected_face.jpg');
const KINDS: SpecimenFailureKind[] = ['VALID', 'TAMPERED_DATA_GROUP', 'BAD_SIGNATURE', 'UNTRUSTED_CSCA', 'ACTIVE_AUTH_WRONG_KEY'];

describe.each(['EC', 'RSA'] as const)('%s specimen authority', (keyType) => {
  let authority: SpecimenAuthority;
  beforeAll(async () => {
    authority = await createSpecimenAuthority({ keyType });
  });

  it.each(KINDS)('%s gives its documented status', async (kind) => {
    const doc = await issueSpecimenDocument(authority, {
      faceImage: face,
      activeAuthentication: keyType,
      dg11: { surname: 'Specimen', givenNames: 'Erika', placeOfBirth: ['Berlin'] },
    });
    const c = await deriveSpecimenCase(doc, kind);
    const r = verifyDocument({ sod: c.sod, dataGroups: c.dataGroups, trustStore: c.trustStore, activeAuth: c.activeAuth });
    expect(r.status).toBe(c.expectedStatus);
    if (kind === 'VALID') expect(r.failures).toEqual([]);
    else expect(new Set(r.failures.map((f) => f.status))).toEqual(new Set([c.expectedStatus]));
  });
});

describe('specimen content', () => {
  let authority: SpecimenAuthority;
  beforeAll(async () => {
    authority = await createSpecimenAuthority({ country: 'DE' });
  });

  it('DG2 carries the given JPEG byte-exact with its dimensions', async () => {
    const doc = await issueSpecimenDocument(authority, { faceImage: face });
    const [f] = parseDg2(doc.dataGroups.get(2)!).faces;
    expect(Buffer.from(f.imageData).equals(Buffer.from(face))).toBe(true);
    expect(f).toMatchObject({ imageType: 'JPEG', width: 148, height: 70, format: 'ISO19794-5' });
  });

  it('DG2 from a JPEG 2000 image', async () => {
    const jp2 = fixture('dg2/EF_DG2_ISO39794-5_expected_face.jpg');
    const doc = await issueSpecimenDocument(authority, { faceImage: jp2, activeAuthentication: false });
    expect(parseDg2(doc.dataGroups.get(2)!).faces[0]).toMatchObject({ imageType: 'JPEG2000', width: 413, height: 531 });
    expect(verifyDocument({ sod: doc.sod, dataGroups: doc.dataGroups, trustStore: authority.trustStore() }).status).toBe(STATUS.PASS);
  });

  it('refuses a face image that is neither JPEG nor JPEG 2000', async () => {
    await expect(issueSpecimenDocument(authority, { faceImage: new Uint8Array([1, 2, 3, 4]) })).rejects.toThrow(
      expect.objectContaining({ code: 'BIOMETRIC_MALFORMED' }),
    );
  });

  it('DG1 from MRZ fields (TD1 for an ID card), DG11 and EF.COM', async () => {
    const doc = await issueSpecimenDocument(authority, {
      documentKind: 'idCard',
      mrz: {
        issuingState: 'D',
        surname: 'Mustermann',
        givenNames: 'Erika',
        documentNumber: 'T22000129',
        nationality: 'D',
        dateOfBirth: '830812',
        sex: 'F',
        dateOfExpiry: '310630',
      },
      dg11: { surname: 'Mustermann', givenNames: 'Erika', fullDateOfBirth: '19830812', address: ['Heidestrasse 17', 'Koeln'], otherNames: ['Gabler'] },
      activeAuthentication: false,
    });
    const mrz = parseMrz(doc.mrz);
    expect([mrz.format, mrz.primaryIdentifier, mrz.valid]).toEqual(['TD1', 'MUSTERMANN', true]);
    const dg11 = parseDg11(doc.dataGroups.get(11)!);
    expect(dg11).toMatchObject({ fullDateOfBirth: '19830812', address: 'Heidestrasse 17,Koeln' });
    expect(dg11.otherNames.map((n) => n.primaryIdentifier)).toEqual(['GABLER']);
    expect(parseEfCom(doc.efCom).dataGroups).toEqual([1, 11]);
    expect(doc.dataGroups.has(15)).toBe(false);
  });

  it('accepts an MRZ string and refuses one with a bad check digit', async () => {
    const good = 'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<L898902C36UTO7408122F1204159ZE184226B<<<<<10';
    expect((await issueSpecimenDocument(authority, { mrz: good, activeAuthentication: false })).mrzInformation).toBe('L898902C3674081221204159');
    await expect(issueSpecimenDocument(authority, { mrz: good.replace(/10$/, '11') })).rejects.toThrow(Icao9303Error);
  });

  it('RSA AA: DG15 holds an RSA key and the challenge signature verifies via verifyDocument', async () => {
    const doc = await issueSpecimenDocument(authority, { activeAuthentication: 'RSA' });
    expect(parseDg15(doc.dataGroups.get(15)!).publicKey.kind).toBe('RSA');
    const challenge = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]);
    const r = verifyDocument({
      sod: doc.sod,
      dataGroups: doc.dataGroups,
      trustStore: authority.trustStore(),
      activeAuth: { challenge, signature: signActiveAuthChallenge(doc, challenge) },
    });
    expect(r.checks.activeAuthentication).toMatchObject({ ok: true, algorithm: 'RSA-ISO9796-2' });
    const other = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 9]);
    expect(
      verifyDocument({
        sod: doc.sod,
        dataGroups: doc.dataGroups,
        trustStore: authority.trustStore(),
        activeAuth: { challenge: other, signature: signActiveAuthChallenge(doc, challenge) },
      }).status,
    ).toBe(STATUS.BAD_CLONE_DETECTION);
  });

  it('AA evidence without DG15 presented → CLONE', async () => {
    const doc = await issueSpecimenDocument(authority);
    const dataGroups = new Map(doc.dataGroups);
    dataGroups.delete(15);
    const challenge = new Uint8Array(8);
    const r = verifyDocument({
      sod: doc.sod,
      dataGroups,
      trustStore: authority.trustStore(),
      activeAuth: { challenge, signature: signActiveAuthChallenge(doc, challenge) },
    });
    expect(r.status).toBe(STATUS.BAD_CLONE_DETECTION);
  });

  it('signing AA without a key is a typed error', () => {
    expect(() => signActiveAuthChallenge({ activeAuthKey: undefined }, new Uint8Array(8))).toThrow(Icao9303Error);
  });
});
