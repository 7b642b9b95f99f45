import { Clock } from '../../src/common/clock.js';
import { SealedNonces } from '../../src/credential-issuer/nonces/sealed-nonces.js';
import { NONCE_SECONDS } from '../../src/credential-issuer/nonces/single-use-values.service.js';
import { keyProof, testKey } from '../support/credential-issuer.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { errorOf, vciClient } from '../support/vci-client.js';

const INVALID_NONCE = { status: 400, error: 'invalid_nonce' };
const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * The c_nonce and the DPoP proof at the credential endpoint, used once, by an authenticated request: a nonce is sealed,
 * not stored, so each refusal here is the sealing's (expired, altered, another purpose) or the spent set's (replay).
 */
describe('credential issuer: c_nonce and DPoP proofs used once', () => {
  let t: TestApp;
  let vci: ReturnType<typeof vciClient>;
  beforeAll(async () => {
    t = await startTestApp();
    vci = vciClient(t);
  });
  afterAll(() => t?.close());

  /** A wallet with a fresh DPoP-bound token. */
  const wallet = async () => {
    const key = await testKey();
    return { key, token: await vci.accessToken(key) };
  };

  it('accepts a c_nonce once: again with another token it is refused, and of two requests at once one gets it', async () => {
    const [a, b, c, d] = await Promise.all([wallet(), wallet(), wallet(), wallet()]);
    const nonce = await vci.nonce();
    expect((await vci.credential(a.key, a.token, nonce)).status).toBe(200);
    expect(await errorOf(await vci.credential(b.key, b.token, nonce))).toEqual(INVALID_NONCE);
    const raced = await vci.nonce();
    const answers = await Promise.all([vci.credential(c.key, c.token, raced), vci.credential(d.key, d.token, raced)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 400]);
    // The refused ones spent nothing of their token: a fresh nonce issues.
    expect((await vci.credential(b.key, b.token, await vci.nonce())).status).toBe(200);
  });

  it('refuses a c_nonce once it expired (and takes one just before)', async () => {
    const clock = t.app.get(Clock);
    const moved = vciClient(t, t.baseUrl, () => Math.floor(clock.now().getTime() / 1000));
    const young = await vci.nonce();
    const old = await vci.nonce();
    const shift = (seconds: number) => clock.advance(seconds * 1000);
    try {
      shift(NONCE_SECONDS - 5);
      const early = await testKey();
      expect((await moved.credential(early, await moved.accessToken(early), young)).status).toBe(200);
      shift(6);
      const key = await testKey();
      const token = await moved.accessToken(key);
      expect(await errorOf(await moved.credential(key, token, old))).toEqual(INVALID_NONCE);
      expect((await moved.credential(key, token, await moved.nonce())).status).toBe(200);
    } finally {
      shift(-(NONCE_SECONDS + 1));
    }
  });

  it('refuses an altered c_nonce in any part, and the attempts spend neither the nonce nor the token', async () => {
    const { key, token } = await wallet();
    const nonce = await vci.nonce();
    const parts = nonce.split('.');
    expect(parts.map((p) => p.length > 0)).toEqual([true, false, true, true, true]);
    for (const part of [0, 2, 3, 4]) {
      const altered = [...parts];
      const i = Math.floor(altered[part].length / 2);
      altered[part] = altered[part].slice(0, i) + B64URL[(B64URL.indexOf(altered[part][i]) + 1) % 64] + altered[part].slice(i + 1);
      expect(await errorOf(await vci.credential(key, token, altered.join('.')))).toEqual(INVALID_NONCE);
    }
    expect(await errorOf(await vci.credential(key, token, `${nonce}x`))).toEqual(INVALID_NONCE);
    expect((await vci.credential(key, token, nonce)).status).toBe(200);
  });

  it('refuses a nonce this service sealed for another purpose, and a c_nonce of another deployment', async () => {
    const { key, token } = await wallet();
    const { currentKeyId, keys } = t.config.encryption;
    const ofAnotherPurpose = await new SealedNonces('dpop nonce', currentKeyId, keys).seal(new Date(), NONCE_SECONDS);
    expect(await errorOf(await vci.credential(key, token, ofAnotherPurpose))).toEqual(INVALID_NONCE);
    const ofAnotherDeployment = await new SealedNonces('openid4vci c_nonce', currentKeyId, new Map([[currentKeyId, Buffer.alloc(32, 7)]])).seal(
      new Date(),
      NONCE_SECONDS,
    );
    expect(await errorOf(await vci.credential(key, token, ofAnotherDeployment))).toEqual(INVALID_NONCE);
    expect((await vci.credential(key, token, await vci.nonce())).status).toBe(200);
  });

  it('takes a spent c_nonce written another way (base64url spare bits) for what it is: the same nonce, used', async () => {
    const a = await wallet();
    const b = await wallet();
    const nonce = await vci.nonce();
    expect((await vci.credential(a.key, a.token, nonce)).status).toBe(200);
    // The tag's 16 bytes are 22 characters, whose last has 4 bits no byte uses: flipping one gives the same bytes.
    const last = B64URL.indexOf(nonce.at(-1)!);
    const sameBytes = nonce.slice(0, -1) + B64URL[last ^ 1];
    expect(sameBytes).not.toBe(nonce);
    expect(await errorOf(await vci.credential(b.key, b.token, sameBytes))).toEqual(INVALID_NONCE);
  });

  it('spends a DPoP proof once its token is proven: sent again, with the same token, it is refused', async () => {
    const { key, token } = await wallet();
    const proof = await vci.credentialProof(key, token);
    // Authenticated (the token is good and bound to the key) but refused for its key proof: the DPoP proof is spent.
    const wrongAudience = await keyProof(await testKey(), `${t.baseUrl}/another-issuer`, await vci.nonce());
    expect(await errorOf(await vci.credential(key, token, '', proof, wrongAudience))).toEqual({ status: 400, error: 'invalid_proof' });
    const replay = await vci.credential(key, token, await vci.nonce(), proof);
    expect(await errorOf(replay)).toEqual({ status: 401, error: 'invalid_dpop_proof' });
    expect(replay.headers.get('www-authenticate')).toContain('error="invalid_dpop_proof"');
    expect((await vci.credential(key, token, await vci.nonce())).status).toBe(200);
  });
});
