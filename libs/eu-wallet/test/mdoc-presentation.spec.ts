import { verifyMdocPresentation } from '@identity-broker/eu-wallet';
import { createDeviceKeys } from '../../../test/support/mdoc-holder.js';
import { MDL, MDL_VALUES, mdocWorld, PID, transcriptFor, type MdocWorld } from '../../../test/support/mdoc-fixtures.js';

describe('mdoc presentation (OpenID4VP 1.0, ISO 18013-5): what passes', () => {
  let world: MdocWorld;
  beforeAll(async () => {
    world = await mdocWorld();
  });

  const verify = (deviceResponse: string | Uint8Array, expectedDocType: string = PID.docType) =>
    verifyMdocPresentation({ deviceResponse, sessionTranscript: transcriptFor(), trustAnchors: [world.iaca.root], expectedDocType, now: new Date() });

  it('accepts a PID mdoc, base64url as vp_token carries it, and returns only the elements presented', async () => {
    const response = await world.present({ mdoc: await world.issue() });
    const result = await verify(Buffer.from(response).toString('base64url'));
    expect(result.docType).toBe(PID.docType);
    expect(result.elements).toEqual({ [PID.namespace]: { family_name: 'Mustermann', given_name: 'Erika', birth_date: '1964-08-12' } });
    expect(result.issuer).toEqual({ subject: 'C=UT, O=Test, CN=Test Document Signer', anchorSubject: 'C=UT, O=Test, CN=Test IACA', country: 'UT' });
    expect(result.validUntil.getTime()).toBeGreaterThan(Date.now());
    // The MSO's validityInfo.signed: when the issuer signed it, before now.
    expect(result.signedAt.getTime()).toBeLessThanOrEqual(Date.now());
    expect(result.signedAt.getTime()).toBeGreaterThan(Date.now() - 3_600_000);
    expect(result.status).toBeUndefined();
  });

  it('returns each kind of value plain: array, boolean, full-date, text', async () => {
    const response = await world.present({ mdoc: await world.issue(), elements: ['nationality', 'age_over_18', 'expiry_date', 'issuing_country'] });
    const { elements } = await verify(response);
    expect(elements[PID.namespace]).toEqual({ nationality: ['DE'], age_over_18: true, expiry_date: '2031-01-01', issuing_country: 'UT' });
  });

  it('returns a tdate (tag 0) as an ISO 8601 string and a byte string as a Uint8Array', async () => {
    const { elements } = await verify(await world.present({ mdoc: await world.issue(), elements: ['issuance_date', 'portrait'] }));
    expect(elements[PID.namespace].issuance_date).toBe('2025-01-02T03:04:05.000Z');
    expect(elements[PID.namespace].portrait).toEqual(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]));
  });

  it('accepts a device key on P-384 signing ES384', async () => {
    const device = createDeviceKeys('P-384');
    const mdoc = await world.issue({ deviceKey: device.publicJwk });
    const result = await verify(await world.present({ mdoc, device, alg: 'ES384' }));
    expect(Object.keys(result.elements[PID.namespace])).toEqual(['family_name', 'given_name', 'birth_date']);
  });

  it('accepts an mDL (org.iso.18013.5.1) with nested values, its issuing_country matching the Document Signer', async () => {
    const mdoc = await world.issue({ docType: MDL.docType, namespaces: { [MDL.namespace]: MDL_VALUES } });
    const elements = ['family_name', 'document_number', 'issuing_country', 'expiry_date', 'age_over_18', 'driving_privileges'];
    const response = await world.present({ mdoc, docType: MDL.docType, namespace: MDL.namespace, elements });
    const result = await verify(response, MDL.docType);
    expect(result.elements).toEqual({
      [MDL.namespace]: {
        family_name: 'Mustermann',
        document_number: 'T0000001',
        issuing_country: 'UT',
        expiry_date: '2034-01-01',
        age_over_18: true,
        driving_privileges: [{ vehicle_category_code: 'B', issue_date: '2010-05-01' }],
      },
    });
  });

  it("returns the MSO's status list reference (idx, uri) without checking it", async () => {
    const mdoc = await world.issue({ status: { uri: 'https://issuer.example/status/1', idx: 412 } });
    const result = await verify(await world.present({ mdoc }));
    expect(result.status).toEqual({ uri: 'https://issuer.example/status/1', idx: 412 });
  });
});
