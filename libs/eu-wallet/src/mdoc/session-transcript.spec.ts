import { calculateJwkThumbprint } from 'jose';
import { openId4VpSessionTranscript, sessionTranscriptBytes } from '@identity-broker/eu-wallet';

/**
 * The example of OpenID4VP 1.0 (final), Appendix B.2.6.1 "Invocation via Redirects": its client_id, nonce,
 * response_uri and encryption JWK, and the bytes it gives for the handover and the session transcript.
 */
const EXAMPLE = {
  clientId: 'x509_san_dns:example.com',
  nonce: 'exc7gBkxjx1rdc9udRrveKvSsJIq80avlXeLHhGwqtA',
  responseUri: 'https://example.com/response',
  jwk: {
    kty: 'EC',
    crv: 'P-256',
    x: 'DxiH5Q4Yx3UrukE2lWCErq8N8bqC9CHLLrAwLz5BmE0',
    y: 'XtLM4-3h5o3HUH0MHVJV0kyq0iBlrBwlh8qEDMZ4-Pc',
    use: 'enc',
    alg: 'ECDH-ES',
    kid: '1',
  },
  handover: '82714f70656e494434565048616e646f7665725820048bc053c00442af9b8eed494cefdd9d95240d254b046b11b68013722aad38ac',
};

async function exampleTranscript(overrides: Partial<{ clientId: string; nonce: string; responseUri: string }> = {}) {
  const thumbprint = Buffer.from(await calculateJwkThumbprint(EXAMPLE.jwk, 'sha256'), 'base64url');
  return openId4VpSessionTranscript({
    clientId: EXAMPLE.clientId,
    nonce: EXAMPLE.nonce,
    responseUri: EXAMPLE.responseUri,
    jwkThumbprint: thumbprint,
    ...overrides,
  });
}

describe('OpenID4VP 1.0 session transcript (mdoc)', () => {
  it("is the specification's example, byte for byte: [null, null, OpenID4VPHandover]", async () => {
    expect(Buffer.from(await exampleTranscript()).toString('hex')).toBe(`83f6f6${EXAMPLE.handover}`);
  });

  it('changes with each input it binds: client identifier with its prefix, nonce, response URI, encryption key', async () => {
    const base = Buffer.from(await exampleTranscript()).toString('hex');
    const variants = await Promise.all([
      exampleTranscript({ clientId: 'example.com' }),
      exampleTranscript({ nonce: `${EXAMPLE.nonce}x` }),
      exampleTranscript({ responseUri: 'https://example.com/other' }),
      openId4VpSessionTranscript({ clientId: EXAMPLE.clientId, nonce: EXAMPLE.nonce, responseUri: EXAMPLE.responseUri, jwkThumbprint: null }),
    ]);
    for (const variant of variants) expect(Buffer.from(variant).toString('hex')).not.toBe(base);
  });

  it('is handed to the mdoc libraries as tag 24 around its bytes', async () => {
    const transcript = await exampleTranscript();
    const tagged = Buffer.from(sessionTranscriptBytes(transcript));
    // d8 18: tag 24; 58 xx: a byte string of xx bytes; then the transcript itself.
    expect(tagged.subarray(0, 4).toString('hex')).toBe(`d81858${transcript.length.toString(16)}`);
    expect(tagged.subarray(4).equals(Buffer.from(transcript))).toBe(true);
  });
});
