import { holderSessionTranscript, taggedTranscript } from '../../../scripts/test-wallet/holder-transcript.js';

/** The test wallet's own transcript (on @auth0/mdl's CBOR) against OpenID4VP 1.0 Appendix B.2.6.1's example bytes. */
describe("the test wallet's OpenID4VP 1.0 session transcript", () => {
  it("is the specification's example, byte for byte, and tags it as DeviceAuthentication embeds it", async () => {
    const transcript = await holderSessionTranscript({
      clientId: 'x509_san_dns:example.com',
      nonce: 'exc7gBkxjx1rdc9udRrveKvSsJIq80avlXeLHhGwqtA',
      responseUri: 'https://example.com/response',
      encryptionJwk: {
        kty: 'EC',
        crv: 'P-256',
        x: 'DxiH5Q4Yx3UrukE2lWCErq8N8bqC9CHLLrAwLz5BmE0',
        y: 'XtLM4-3h5o3HUH0MHVJV0kyq0iBlrBwlh8qEDMZ4-Pc',
        use: 'enc',
        alg: 'ECDH-ES',
        kid: '1',
      },
    });
    expect(transcript.toString('hex')).toBe('83f6f682714f70656e494434565048616e646f7665725820048bc053c00442af9b8eed494cefdd9d95240d254b046b11b68013722aad38ac');
    expect((await taggedTranscript(transcript)).toString('hex')).toBe(`d81858${transcript.length.toString(16)}${transcript.toString('hex')}`);
  });
});
