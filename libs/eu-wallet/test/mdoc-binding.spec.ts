import { generateKeyPairSync } from 'node:crypto';
import { parseDeviceResponse, Verifier, type DeviceSignedDocument } from '@animo-id/mdoc';
import { sessionTranscriptBytes, verifyMdocPresentation } from '@identity-broker/eu-wallet';
import { verifierContext } from '../src/mdoc/mdoc-context.js';
import { createDeviceKeys } from '../../../test/support/mdoc-holder.js';
import { refusedWith } from '../../../test/support/mdoc-expect.js';
import { mdocWorld, PID, REQUEST, transcriptFor, type MdocWorld } from '../../../test/support/mdoc-fixtures.js';
import { coseKeyBytes, editResponse } from '../../../test/support/mdoc-tamper.js';

/**
 * DeviceAuth (ISO 18013-5 9.1.3) is what ties a presentation to one OpenID4VP request: the device signs
 * DeviceAuthentication over the SessionTranscript, which hashes client_id, nonce and response_uri (OpenID4VP 1.0
 * Appendix B.2.6.1). A response made for any other request must be refused as `wrong_binding`.
 */
describe('mdoc presentation: binding to this request (DeviceAuth)', () => {
  let world: MdocWorld;
  let mdoc: Uint8Array;
  beforeAll(async () => {
    world = await mdocWorld();
    mdoc = await world.issue();
  });

  const verify = (deviceResponse: Uint8Array, sessionTranscript = transcriptFor()) =>
    verifyMdocPresentation({ deviceResponse, sessionTranscript, trustAnchors: [world.iaca.root], expectedDocType: PID.docType, now: new Date() });

  it('refuses a response signed over a transcript with another nonce', async () => {
    const response = await world.present({ mdoc, transcript: transcriptFor({ nonce: 'another-nonce' }) });
    await refusedWith(verify(response), 'wrong_binding');
  });

  it('refuses a response signed over a transcript with another client_id', async () => {
    const response = await world.present({ mdoc, transcript: transcriptFor({ clientId: 'x509_hash:b3RoZXItdmVyaWZpZXI' }) });
    await refusedWith(verify(response), 'wrong_binding');
  });

  it('refuses a response signed over a transcript with another response_uri', async () => {
    const response = await world.present({ mdoc, transcript: transcriptFor({ responseUri: 'https://thief.example/response' }) });
    await refusedWith(verify(response), 'wrong_binding');
  });

  it('refuses a response for this request signed by a device key other than the one in the MSO', async () => {
    const response = await world.present({ mdoc, device: createDeviceKeys() });
    await refusedWith(verify(response), 'wrong_binding');
  });

  it('refuses deviceMac (ISO 18013-5 9.1.3.5): OpenID4VP gives the wallet no reader key to MAC with', async () => {
    const reader = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' });
    const response = await world.present({ mdoc, macWithReaderKey: coseKeyBytes(reader) });
    const error = await refusedWith(verify(response), 'wrong_binding');
    expect(error.message).toMatch(/deviceMac/);
  });

  it('takes only the plain transcript: its tag-24 form, given by mistake, verifies nothing', async () => {
    const response = await world.present({ mdoc });
    const error = await refusedWith(verify(response, sessionTranscriptBytes(transcriptFor())), 'malformed');
    expect(error.message).toMatch(/plain SessionTranscript/);
  });

  it('refuses a response whose device signature was stripped', async () => {
    const response = await world.present({ mdoc });
    const stripped = editResponse(response, (_top, doc) => {
      (doc.get('deviceSigned') as Map<string, unknown>).set('deviceAuth', new Map());
    });
    await refusedWith(verify(stripped), 'wrong_binding');
  });
});

/**
 * What @animo-id/mdoc 0.5.2 does with the transcript it is given, pinned: its Verifier decodes the transcript
 * bytes and takes `.data` of the result, so the plain transcript (an array, not a tag-24 item) becomes `undefined`
 * and a device signature made over `undefined` passes for every request. Only the tag-24 form binds. This
 * library builds DeviceAuthentication itself (device-auth.ts), but the pitfall stays written down here.
 */
describe('@animo-id/mdoc Verifier and the session transcript (library behaviour)', () => {
  let world: MdocWorld;
  beforeAll(async () => {
    world = await mdocWorld();
  });

  const libraryVerdict = async (response: Uint8Array, transcriptBytes: Uint8Array): Promise<string[]> => {
    const failures: string[] = [];
    const document = parseDeviceResponse(response).documents[0] as DeviceSignedDocument;
    await new Verifier().verifyDeviceSignature(
      { deviceSigned: document, sessionTranscriptBytes: transcriptBytes, onCheckG: (c) => void (c.status === 'FAILED' && failures.push(c.check)) },
      verifierContext([world.iaca.root], new Date()),
    );
    return failures;
  };

  it('uses the transcript it is given in tag-24 form: another request fails', async () => {
    const response = await world.present({ mdoc: await world.issue() });
    expect(await libraryVerdict(response, sessionTranscriptBytes(transcriptFor()))).toEqual([]);
    expect(await libraryVerdict(response, sessionTranscriptBytes(transcriptFor({ nonce: 'x' })))).toEqual(['Device signature must be valid']);
  });

  it('given the plain transcript, verifies over undefined: the bypass this library avoids', async () => {
    // A holder signing over tag-24 of `undefined`, as the library computes it from any plain transcript.
    const overUndefined = await world.present({ mdoc: await world.issue(), transcript: new Uint8Array([0xf7]) });
    const anyRequest = transcriptFor({ nonce: `${REQUEST.nonce}-another` });
    expect(await libraryVerdict(overUndefined, anyRequest)).toEqual([]);
    await refusedWith(verify(overUndefined, anyRequest), 'wrong_binding');

    function verify(deviceResponse: Uint8Array, sessionTranscript: Uint8Array) {
      return verifyMdocPresentation({ deviceResponse, sessionTranscript, trustAnchors: [world.iaca.root], expectedDocType: PID.docType, now: new Date() });
    }
  });
});
