import { verifyDpopProof, type VerifyDpopProofInput, jwkThumbprint } from '@identity-broker/eu-wallet';
import { dpopProof, forgeHeader, hs256, refusal, unsecured, walletKey, type WalletKey } from './support/vci-wallet.js';

const TOKEN_URL = 'https://broker.test.invalid/vci/token';
const CREDENTIAL_URL = 'https://broker.test.invalid/vci/credential';
const ACCESS_TOKEN = 'at-6mP2xk0Q9wYv3JrT';

/** RFC 9449 §4.3: the DPoP proof checks of the token and credential endpoints. */
describe('DPoP proofs', () => {
  const now = new Date();
  let key: WalletKey;
  const verify = (proof: unknown, overrides: Partial<VerifyDpopProofInput> = {}) =>
    verifyDpopProof({ proof, method: 'POST', url: TOKEN_URL, now, ...overrides });
  const ago = (s: number) => new Date(now.getTime() - s * 1000);

  beforeAll(() => {
    key = walletKey();
  });

  it('returns the key thumbprint, jti and iat of a valid proof; with an access token, checks ath', async () => {
    const proof = await dpopProof(key, { method: 'POST', url: TOKEN_URL }, { now });
    const result = verify(proof);
    expect(result).toEqual({ jkt: jwkThumbprint(key.jwk as never), jti: expect.stringMatching(/^jti-/), iat: Math.floor(now.getTime() / 1000) });
    const withAth = await dpopProof(key, { method: 'POST', url: CREDENTIAL_URL, accessToken: ACCESS_TOKEN });
    expect(await refusal(() => verify(withAth, { url: CREDENTIAL_URL, accessToken: ACCESS_TOKEN, expectedJkt: result.jkt }))).toBe('accepted');
    expect(await refusal(async () => verify(await dpopProof(walletKey('EdDSA'), { method: 'POST', url: TOKEN_URL })))).toBe('accepted');
  });

  it('refuses another method and another URI; query and fragment are ignored on both sides', async () => {
    const proof = await dpopProof(key, { method: 'POST', url: TOKEN_URL });
    expect(await refusal(() => verify(proof, { method: 'GET' }))).toBe('invalid_dpop_proof: DPoP proof htm is not the request method');
    expect(await refusal(() => verify(proof, { url: CREDENTIAL_URL }))).toBe('invalid_dpop_proof: DPoP proof htu is not the request URI');
    expect(await refusal(() => verify(proof, { url: 'http://broker.test.invalid/vci/token' }))).toMatch(/htu is not the request URI/);
    expect(await refusal(() => verify(proof, { url: `${TOKEN_URL}?a=1#f` }))).toBe('accepted');
    expect(await refusal(async () => verify(await dpopProof(key, { method: 'POST', url: `${TOKEN_URL}?x=y` })))).toBe('accepted');
    expect(await refusal(async () => verify(await dpopProof(key, { method: 'POST', url: TOKEN_URL }, { dropPayload: ['htu'] })))).toMatch(
      /htu is not the request URI/,
    );
  });

  it('refuses a missing or wrong ath when an access token is presented, and a key other than the token is bound to', async () => {
    const input = { url: CREDENTIAL_URL, accessToken: ACCESS_TOKEN };
    expect(await refusal(async () => verify(await dpopProof(key, { method: 'POST', url: CREDENTIAL_URL }), input))).toBe(
      'invalid_dpop_proof: DPoP proof ath is not the hash of the access token',
    );
    expect(await refusal(async () => verify(await dpopProof(key, { method: 'POST', url: CREDENTIAL_URL, accessToken: 'another' }), input))).toMatch(
      /ath is not the hash/,
    );
    const proof = await dpopProof(key, { method: 'POST', url: CREDENTIAL_URL, accessToken: ACCESS_TOKEN });
    expect(await refusal(() => verify(proof, { ...input, expectedJkt: jwkThumbprint(walletKey().jwk as never) }))).toBe(
      'invalid_dpop_proof: DPoP proof is not signed by the key the access token is bound to',
    );
  });

  it('refuses a stale iat, an iat in the future, and none', async () => {
    const request = { method: 'POST', url: TOKEN_URL };
    expect(await refusal(async () => verify(await dpopProof(key, request, { now: ago(301) })))).toBe('invalid_dpop_proof: DPoP proof iat is too old');
    expect(await refusal(async () => verify(await dpopProof(key, request, { now: ago(-61) })))).toBe('invalid_dpop_proof: DPoP proof iat is in the future');
    expect(await refusal(async () => verify(await dpopProof(key, request, { now: ago(299) })))).toBe('accepted');
    expect(await refusal(async () => verify(await dpopProof(key, request, { dropPayload: ['iat'] })))).toBe(
      'invalid_dpop_proof: DPoP proof has no numeric iat',
    );
    expect(await refusal(async () => verify(await dpopProof(key, request, { dropPayload: ['jti'] })))).toBe('invalid_dpop_proof: DPoP proof has no jti');
  });

  it('refuses typ other than dpop+jwt, alg none, HS256, a private or missing jwk, and a signature by another key', async () => {
    const request = { method: 'POST', url: TOKEN_URL };
    const good = await dpopProof(key, request);
    expect(await refusal(async () => verify(await dpopProof(key, request, { header: { typ: 'JWT' } })))).toBe(
      'invalid_dpop_proof: DPoP proof typ is not dpop+jwt',
    );
    expect(await refusal(() => verify(forgeHeader(good, (h) => (h.alg = 'none'))))).toBe(
      'invalid_dpop_proof: DPoP proof alg is not one of ES256, ES384, ES512, EdDSA',
    );
    expect(await refusal(() => verify(unsecured(good)))).toBe('invalid_dpop_proof: DPoP proof is not a compact JWS');
    expect(await refusal(() => verify(hs256(good)))).toMatch(/alg is not one of/);
    expect(await refusal(async () => verify(await dpopProof(key, request, { header: { jwk: key.privateKey.export({ format: 'jwk' }) } })))).toBe(
      'invalid_dpop_proof: DPoP proof jwk is not a public key',
    );
    expect(await refusal(async () => verify(await dpopProof(key, request, { dropHeader: ['jwk'] })))).toBe('invalid_dpop_proof: DPoP proof header has no jwk');
    expect(await refusal(() => verify(forgeHeader(good, (h) => (h.jwk = walletKey().jwk))))).toBe(
      'invalid_dpop_proof: DPoP proof signature does not verify with its jwk',
    );
    expect(await refusal(() => verify(undefined))).toMatch(/^invalid_dpop_proof: DPoP proof is not a string/);
  });
});
