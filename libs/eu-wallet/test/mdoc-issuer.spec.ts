import { verifyMdocPresentation, createTestSigner, type TestSigner } from '@identity-broker/eu-wallet';
import { refusedWith } from '../../../test/support/mdoc-expect.js';
import { MDL, MDL_VALUES, mdocWorld, PID, PID_VALUES, transcriptFor, type MdocWorld } from '../../../test/support/mdoc-fixtures.js';
import { cborDecode, cborEncode, editItem, editResponse, issuerAuth, issuerItems } from '../../../test/support/mdoc-tamper.js';

const DAY = 86_400_000;

/** IssuerAuth, the MSO and the issuer-signed items (ISO 18013-5 9.1.2, 9.3.1): each forgery refused with its code. */
describe('mdoc presentation: issuer data and document', () => {
  let world: MdocWorld;
  let other: TestSigner;
  let response: Uint8Array;
  beforeAll(async () => {
    world = await mdocWorld();
    other = await createTestSigner({ rootName: 'Other IACA', signerName: 'Other Document Signer', country: 'UT' });
    response = await world.present({ mdoc: await world.issue() });
  });

  const verify = (deviceResponse: Uint8Array, options: { anchors?: Uint8Array[]; docType?: string; now?: Date } = {}) =>
    verifyMdocPresentation({
      deviceResponse,
      sessionTranscript: transcriptFor(),
      trustAnchors: options.anchors ?? [world.iaca.root],
      expectedDocType: options.docType ?? PID.docType,
      now: options.now ?? new Date(),
    });

  it('refuses a tampered element value (its digest no longer matches the MSO)', async () => {
    const tampered = editResponse(response, (_top, doc) => editItem(doc, PID.namespace, 'family_name', (item) => item.set('elementValue', 'Musterfrau')));
    await refusedWith(verify(tampered), 'invalid_signature');
  });

  it('refuses an element whose digestID has no digest in the MSO', async () => {
    const tampered = editResponse(response, (_top, doc) => editItem(doc, PID.namespace, 'given_name', (item) => item.set('digestID', 9999)));
    await refusedWith(verify(tampered), 'invalid_signature');
  });

  it('refuses an element the issuer never signed, added with a digestID of another element', async () => {
    const tampered = editResponse(response, (_top, doc) => {
      const items = issuerItems(doc, PID.namespace);
      items.push(items[0]);
      editItem(doc, PID.namespace, 'family_name', (item) => item.set('elementIdentifier', 'age_over_21'));
    });
    await refusedWith(verify(tampered), 'invalid_signature');
  });

  it('refuses a signed element moved into a namespace the MSO has no digests for', async () => {
    const tampered = editResponse(response, (_top, doc) => {
      const nameSpaces = (doc.get('issuerSigned') as Map<string, unknown>).get('nameSpaces') as Map<string, unknown>;
      nameSpaces.set('org.iso.18013.5.1', nameSpaces.get(PID.namespace));
      nameSpaces.delete(PID.namespace);
    });
    await refusedWith(verify(tampered), 'invalid_signature');
  });

  it('refuses an MSO signature that does not verify (one bit of the signature flipped)', async () => {
    const tampered = editResponse(response, (_top, doc) => {
      const signature = issuerAuth(doc)[3] as Uint8Array;
      signature[10] ^= 1;
    });
    await refusedWith(verify(tampered), 'invalid_signature');
  });

  it("refuses an MSO presented under another trusted Document Signer's certificate", async () => {
    const tampered = editResponse(response, (_top, doc) => {
      (issuerAuth(doc)[1] as Map<number, unknown>).set(33, other.chain[0]);
    });
    await refusedWith(verify(tampered, { anchors: [world.iaca.root, other.root] }), 'invalid_signature');
  });

  it('refuses an issuer whose IACA is not among the trust anchors', async () => {
    await refusedWith(verify(response, { anchors: [other.root] }), 'untrusted_issuer');
  });

  it('refuses an mdoc issued by an untrusted IACA even when it presents that IACA in x5chain', async () => {
    const foreign = await world.present({ mdoc: await world.issue({ signer: other }) });
    const withRoot = editResponse(foreign, (_top, doc) => (issuerAuth(doc)[1] as Map<number, unknown>).set(33, other.chain));
    await refusedWith(verify(withRoot), 'untrusted_issuer');
  });

  it('refuses an IssuerAuth whose algorithm is not ES256/384/512', async () => {
    const tampered = editResponse(response, (_top, doc) => {
      const auth = issuerAuth(doc);
      const headers = cborDecode(auth[0] as Uint8Array) as Map<number, unknown>;
      headers.set(1, -8);
      auth[0] = cborEncode(headers);
    });
    await refusedWith(verify(tampered), 'unexpected_credential');
  });

  it('refuses an expired MSO (now after validUntil)', async () => {
    const mdoc = await world.issue({ validUntil: new Date(Date.now() + 30 * DAY) });
    const error = await refusedWith(verify(await world.present({ mdoc }), { now: new Date(Date.now() + 60 * DAY) }), 'expired');
    expect(error.message).not.toMatch(/Mustermann/);
  });

  it('refuses an MSO not valid yet (now before validFrom)', async () => {
    const mdoc = await world.issue({ validFrom: new Date(Date.now() + 10 * DAY), validUntil: new Date(Date.now() + 40 * DAY) });
    await refusedWith(verify(await world.present({ mdoc })), 'expired');
  });

  it('refuses another docType than the one asked', async () => {
    const mdl = await world.issue({ docType: MDL.docType, namespaces: { [MDL.namespace]: MDL_VALUES } });
    const presented = await world.present({ mdoc: mdl, docType: MDL.docType, namespace: MDL.namespace, elements: ['family_name'] });
    await refusedWith(verify(presented), 'unexpected_credential');
  });

  it('refuses a document that names another docType than its MSO signs', async () => {
    const renamed = editResponse(response, (_top, doc) => doc.set('docType', MDL.docType));
    await refusedWith(verify(renamed, { docType: MDL.docType }), 'unexpected_credential');
  });

  it('refuses an mDL whose issuing_country is not the Document Signer country (ISO 18013-5 9.3.3)', async () => {
    const mdl = await world.issue({ docType: MDL.docType, namespaces: { [MDL.namespace]: { ...MDL_VALUES, issuing_country: 'FR' } } });
    const presented = await world.present({ mdoc: mdl, docType: MDL.docType, namespace: MDL.namespace, elements: ['issuing_country'] });
    await refusedWith(verify(presented, { docType: MDL.docType }), 'untrusted_issuer');
  });

  it('refuses two documents in one DeviceResponse', async () => {
    const two = editResponse(response, (top) => {
      const documents = top.get('documents') as unknown[];
      documents.push(documents[0]);
    });
    await refusedWith(verify(two), 'unexpected_credential');
  });

  it('refuses a DeviceResponse without documents, and one whose status is an error (ISO 18013-5 8.3.2.1.2.3)', async () => {
    await refusedWith(verify(editResponse(response, (top) => top.set('documents', []))), 'unexpected_credential');
    await refusedWith(verify(editResponse(response, (top) => top.set('status', 10))), 'malformed');
  });

  it('never puts a claim value in a refusal message', async () => {
    const tampered = editResponse(response, (_top, doc) => editItem(doc, PID.namespace, 'family_name', (item) => item.set('elementValue', 'Musterfrau')));
    const error = await refusedWith(verify(tampered), 'invalid_signature');
    for (const value of [PID_VALUES.family_name, 'Musterfrau', PID_VALUES.given_name]) expect(error.message).not.toContain(value);
  });
});
