import { createPublicKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { CompactSign } from 'jose';
import {
  buildDcqlQuery,
  checkVpTokenAgainstQuery,
  createRequestObject,
  createResponseEncryptionKey,
  openAuthorizationResponse,
  PID_SD_JWT_VCT,
  x509HashClientId,
  type OpenAuthorizationResponseOptions,
  createTestSigner,
} from '@identity-broker/eu-wallet';
import { mulberry32 } from '../../../test/support/seeded-random.js';
import { refusal, walletEncrypts, walletReadsRequest, type WalletView } from '../../../test/support/wallet/jose-wallet.js';

describe('OpenID4VP 1.0 direct_post.jwt response (HAIP 1.0: ECDH-ES P-256, A128GCM/A256GCM)', () => {
  const encKey = createResponseEncryptionKey();
  const state = randomBytes(24).toString('base64url');
  const dcqlQuery = buildDcqlQuery([
    { id: 'pid', format: 'dc+sd-jwt', vct: [PID_SD_JWT_VCT], claims: [['family_name']] },
    { id: 'pid_mdoc', format: 'mso_mdoc', doctype: 'eu.europa.ec.eudi.pid.1', claims: [['eu.europa.ec.eudi.pid.1', 'family_name']] },
  ]);
  let view: WalletView;
  let open: (form: Record<string, unknown>, extra?: Partial<OpenAuthorizationResponseOptions>) => ReturnType<typeof openAuthorizationResponse>;
  const answer = { vp_token: { pid: ['eyJhbGciOiJFUzI1NiJ9.e30.sig~disclosure~kb'] }, state };

  beforeAll(async () => {
    const signer = await createTestSigner({ rootName: 'Test RP CA', signerName: 'Test request signer' });
    const jwt = await createRequestObject({
      signer,
      clientId: x509HashClientId(signer.chain[0]),
      responseUri: 'https://broker.example.test/wallet/response',
      nonce: randomBytes(24).toString('base64url'),
      state,
      dcqlQuery,
      responseEncryptionKey: encKey.publicJwk,
    });
    view = await walletReadsRequest(jwt, signer.root);
    const offeredEnc = view.claims.client_metadata.encrypted_response_enc_values_supported as string[];
    open = (form, extra = {}) =>
      openAuthorizationResponse({ form, decryptionKey: encKey.privateKey, keyId: encKey.keyId, offeredEnc, expectedState: state, ...extra });
  });

  it.each(['A128GCM', 'A256GCM'])("opens the wallet's JWE with enc %s, and the vp_token answers the query", async (enc) => {
    const opened = await open({ response: await walletEncrypts(view, answer, { enc }) });
    expect(opened).toEqual({ kind: 'vp_token', vpToken: answer.vp_token, state });
    if (opened.kind !== 'vp_token') throw new Error('not a vp_token');
    expect(checkVpTokenAgainstQuery(opened.vpToken, dcqlQuery)).toEqual(answer.vp_token);
  });

  it('opens with the private key given as a JWK too', async () => {
    const decryptionKey = encKey.privateKey.export({ format: 'jwk' });
    await expect(open({ response: await walletEncrypts(view, answer) }, { decryptionKey })).resolves.toMatchObject({ kind: 'vp_token' });
  });

  it('refuses a vp_token sent as a plain form field (unencrypted)', async () => {
    expect(await refusal(() => open({ vp_token: JSON.stringify(answer.vp_token), state }))).toMatch(/^malformed: vp_token was sent unencrypted/);
    expect(await refusal(() => open({}))).toBe('malformed: the POST has no response parameter');
  });

  it('refuses a JWS (signed, not encrypted) as response', async () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jws = await new CompactSign(new TextEncoder().encode(JSON.stringify(answer))).setProtectedHeader({ alg: 'ES256' }).sign(privateKey);
    expect(await refusal(() => open({ response: jws }))).toMatch(/^malformed: response is a JWS \(signed, not encrypted\)/);
  });

  it('refuses an enc that was not offered (A192GCM)', async () => {
    expect(await refusal(async () => open({ response: await walletEncrypts(view, answer, { enc: 'A192GCM' }) }))).toMatch(
      /^malformed: JWE enc "A192GCM" was not offered/,
    );
  });

  it('refuses key management other than ECDH-ES: ECDH-ES+A128KW, RSA-OAEP', async () => {
    expect(await refusal(async () => open({ response: await walletEncrypts(view, answer, { alg: 'ECDH-ES+A128KW' }) }))).toMatch(
      /^malformed: JWE alg "ECDH-ES\+A128KW"/,
    );
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    expect(await refusal(async () => open({ response: await walletEncrypts(view, answer, { alg: 'RSA-OAEP', key: rsa.publicKey }) }))).toMatch(
      /^malformed: JWE alg "RSA-OAEP"/,
    );
  });

  it('refuses a response encrypted to another key, with another kid, or with no kid', async () => {
    const other = createResponseEncryptionKey();
    expect(await refusal(async () => open({ response: await walletEncrypts(view, answer, { key: createPublicKey(other.privateKey) }) }))).toMatch(
      /^wrong_binding: response does not decrypt/,
    );
    expect(await refusal(async () => open({ response: await walletEncrypts(view, answer, { kid: other.keyId }) }))).toBe(
      'wrong_binding: the JWE was made for another key (kid)',
    );
    expect(await refusal(async () => open({ response: await walletEncrypts(view, answer, { kid: null }) }))).toMatch(/^malformed: the JWE header has no kid/);
  });

  it("refuses a state that is not the request's, and a missing state", async () => {
    expect(await refusal(async () => open({ response: await walletEncrypts(view, { ...answer, state: 'another-state-value-000000' }) }))).toMatch(
      /^wrong_binding: .*state/,
    );
    expect(await refusal(async () => open({ response: await walletEncrypts(view, { vp_token: answer.vp_token }) }))).toBe(
      'wrong_binding: the response carries no state',
    );
  });

  it('refuses vp_token values that are not non-empty arrays, unknown ids and answers outside the options', async () => {
    const inside = async (vp_token: unknown) => open({ response: await walletEncrypts(view, { vp_token, state }) });
    expect(await refusal(() => inside({ pid: [] }))).toBe('malformed: vp_token.pid is an empty array');
    expect(await refusal(() => inside({ pid: 'eyJ...' }))).toMatch(/^malformed: vp_token.pid is not an array/);
    expect(await refusal(() => inside('{"pid":["x"]}'))).toMatch(/^malformed: vp_token is not a JSON object/);
    const opened = async (vp_token: unknown) => {
      const result = await inside(vp_token);
      return checkVpTokenAgainstQuery(result.kind === 'vp_token' ? result.vpToken : null, dcqlQuery);
    };
    expect(await refusal(() => opened({ mdl: ['x'] }))).toMatch(/^unexpected_credential: .*mdl, which the request did not have/);
    expect(await refusal(() => opened({ pid: ['x'], pid_mdoc: ['y'] }))).toMatch(/^unexpected_credential: .*none of the options/);
  });

  it("bounds sizes before work: the response field, the decrypted JSON's depth and entries", async () => {
    expect(await refusal(() => open({ response: 'a'.repeat(1_048_577) }))).toMatch(/^malformed: response is longer than 1048576/);
    let deep: unknown = ['x'];
    for (let i = 0; i < 20; i++) deep = { a: deep };
    expect(await refusal(async () => open({ response: await walletEncrypts(view, { vp_token: { pid: ['x'] }, state, deep }) }))).toMatch(
      /^malformed: the decrypted response is nested deeper/,
    );
    const wide = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`k${i}`, i]));
    expect(await refusal(async () => open({ response: await walletEncrypts(view, { ...answer, wide }) }))).toMatch(
      /^malformed: the decrypted response has more than 256 entries/,
    );
    expect(await refusal(() => open({ response: ['a', 'b'] }))).toBe('malformed: response is not a single form field');
  });

  it('returns wallet error responses, unencrypted (1.0 §8.3.1 allows it) or encrypted, and refuses a foreign state', async () => {
    expect(await open({ error: 'access_denied', error_description: 'user declined', state })).toEqual({
      kind: 'error',
      error: 'access_denied',
      errorDescription: 'user declined',
      state,
    });
    expect(await open({ response: await walletEncrypts(view, { error: 'access_denied', state }) })).toEqual({ kind: 'error', error: 'access_denied', state });
    expect(await refusal(() => open({ error: 'access_denied', state: 'someone-elses-state-00000' }))).toMatch(/^wrong_binding: /);
    expect(await refusal(() => open({ error: 'access_denied' }))).toBe('wrong_binding: the error response carries no state');
    expect(await refusal(async () => open({ response: await walletEncrypts(view, { error: 'access_denied' }) }))).toBe(
      'wrong_binding: the error response carries no state',
    );
    expect(await refusal(() => open({ error: 'bad"code' }))).toMatch(/^malformed: error is not an RFC 6749 error code/);
  });

  it('refuses seeded garbage of many sizes with WalletCheckError only, never another exception', async () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_..=+/ \u00e9{}"';
    const valid = await walletEncrypts(view, answer);
    const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
    const codes = new Map<string, number>();
    for (let seed = 1; seed <= 400; seed++) {
      const random = mulberry32(seed);
      const pick = () => alphabet[Math.floor(random() * alphabet.length)];
      const size = Math.floor(random() ** 3 * (seed % 50 === 0 ? 1_100_000 : 5000));
      let response: string;
      switch (seed % 4) {
        case 0:
          response = Array.from({ length: size }, pick).join('');
          break;
        case 1: {
          // Plausible header, garbage elsewhere: exercises the checks after the header and the decryption itself.
          const header = {
            alg: 'ECDH-ES',
            enc: random() < 0.5 ? 'A128GCM' : 'A256GCM',
            kid: encKey.keyId,
            epk: random() < 0.7 ? view.claims.client_metadata.jwks.keys[0] : { kty: 'EC', crv: 'P-256', x: pick(), y: pick() },
          };
          const part = () => Buffer.from(Array.from({ length: Math.floor(random() * 64) }, () => Math.floor(random() * 256))).toString('base64url');
          response = [b64(random() < 0.2 ? 'not json' : header), '', part(), part(), part()].join('.');
          break;
        }
        case 2: {
          // One character of a valid JWE changed (never a segment's last, whose spare bits may not count).
          const chars = [...valid];
          const at = Math.floor(random() * (chars.length - 1));
          if (chars[at] !== '.' && chars[at + 1] !== '.') chars[at] = chars[at] === 'A' ? 'B' : 'A';
          response = chars.join('');
          if (response === valid) continue;
          break;
        }
        default:
          response = Array.from({ length: 5 }, () =>
            Array.from({ length: Math.floor(size / 5) }, pick)
              .join('')
              .replace(/\./g, ''),
          ).join('.');
      }
      const result = await refusal(() => open({ response }));
      expect(result).not.toBe('accepted');
      const code = result.split(':')[0];
      codes.set(code, (codes.get(code) ?? 0) + 1);
    }
    expect([...codes.keys()].sort()).toEqual(['malformed', 'wrong_binding']);
  });
});
