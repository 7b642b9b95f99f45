import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import {
  buildDcqlQuery,
  createRequestObject,
  createResponseEncryptionKey,
  parseRequestUriPost,
  PID_SD_JWT_VCT,
  x509HashClientId,
  x509SanDnsClientId,
  type CreateRequestObjectOptions,
  createTestSigner,
  type TestSigner,
} from '@identity-broker/eu-wallet';
import { refusal, walletReadsRequest } from '../../../test/support/wallet/jose-wallet.js';

const fresh = () => randomBytes(24).toString('base64url');

describe('OpenID4VP 1.0 request object (JAR) with HAIP 1.0', () => {
  let signer: TestSigner;
  let options: CreateRequestObjectOptions;
  const encKey = createResponseEncryptionKey();
  const now = new Date();

  beforeAll(async () => {
    signer = await createTestSigner({ rootName: 'Test RP CA', signerName: 'Test request signer', dnsName: 'broker.example.test' });
    options = {
      signer,
      clientId: x509HashClientId(signer.chain[0]),
      responseUri: 'https://broker.example.test/wallet/response',
      nonce: fresh(),
      state: fresh(),
      dcqlQuery: buildDcqlQuery([{ id: 'pid', format: 'dc+sd-jwt', vct: [PID_SD_JWT_VCT], claims: [['family_name'], ['given_name']] }]),
      responseEncryptionKey: encKey.publicJwk,
      now,
    };
  });

  it('computes x509_hash as base64url SHA-256 of the leaf DER, and x509_san_dns from a DNS name', () => {
    const expected = createHash('sha256').update(signer.chain[0]).digest('base64url');
    expect(x509HashClientId(signer.chain[0])).toBe(`x509_hash:${expected}`);
    expect(x509HashClientId(signer.chain[0])).toMatch(/^x509_hash:[A-Za-z0-9_-]{43}$/);
    expect(x509SanDnsClientId('Broker.Example.test')).toBe('x509_san_dns:broker.example.test');
    expect(() => x509SanDnsClientId('not a name')).toThrow(TypeError);
  });

  it('is what a jose-only wallet accepts: typ, ES256 by the x5c leaf, x509_hash client_id, no trust anchor in x5c', async () => {
    const jwt = await createRequestObject(options);
    const view = await walletReadsRequest(jwt, signer.root);
    expect(view.header).toEqual({ alg: 'ES256', typ: 'oauth-authz-req+jwt', x5c: [Buffer.from(signer.chain[0]).toString('base64')] });
    expect(view.x5c).toHaveLength(1);
  });

  it('carries the claims OpenID4VP 1.0 names, and nothing of the drafts', async () => {
    const { claims } = await walletReadsRequest(await createRequestObject(options), signer.root);
    const iat = Math.floor(now.getTime() / 1000);
    expect(claims).toEqual({
      response_type: 'vp_token',
      response_mode: 'direct_post.jwt',
      client_id: options.clientId,
      response_uri: options.responseUri,
      nonce: options.nonce,
      state: options.state,
      dcql_query: options.dcqlQuery,
      client_metadata: {
        jwks: { keys: [encKey.publicJwk] },
        encrypted_response_enc_values_supported: ['A128GCM', 'A256GCM'],
        vp_formats_supported: { 'dc+sd-jwt': { 'sd-jwt_alg_values': ['ES256'], 'kb-jwt_alg_values': ['ES256'] } },
      },
      aud: 'https://self-issued.me/v2',
      iat,
      exp: iat + 300,
    });
    for (const gone of ['presentation_definition', 'presentation_definition_uri', 'client_id_scheme', 'scope', 'redirect_uri', 'wallet_nonce']) {
      expect(claims).not.toHaveProperty(gone);
    }
  });

  it('lists mdoc algorithms by their 1.0 names when the query asks for an mdoc', async () => {
    const dcqlQuery = buildDcqlQuery([{ id: 'mdl', format: 'mso_mdoc', doctype: 'org.iso.18013.5.1.mDL', claims: [['org.iso.18013.5.1', 'family_name']] }]);
    const { claims } = await walletReadsRequest(await createRequestObject({ ...options, dcqlQuery }), signer.root);
    expect(claims.client_metadata.vp_formats_supported).toEqual({ mso_mdoc: { issuerauth_alg_values: [-7, -9], deviceauth_alg_values: [-7, -9] } });
  });

  it('echoes the wallet_nonce of a request_uri POST (1.0 §5.10)', async () => {
    const posted = parseRequestUriPost({
      wallet_metadata: '{"vp_formats_supported":{"dc+sd-jwt":{}}}',
      wallet_nonce: 'qPmxiNFCR3QTm19POc8u',
      other: 'ignored',
    });
    expect(posted).toEqual({ walletMetadata: { vp_formats_supported: { 'dc+sd-jwt': {} } }, walletNonce: 'qPmxiNFCR3QTm19POc8u' });
    const { claims } = await walletReadsRequest(await createRequestObject({ ...options, walletNonce: posted.walletNonce }), signer.root);
    expect(claims.wallet_nonce).toBe('qPmxiNFCR3QTm19POc8u');
  });

  it('accepts an x509_san_dns client_id only for a DNS name of the leaf', async () => {
    await expect(createRequestObject({ ...options, clientId: x509SanDnsClientId('broker.example.test') })).resolves.toMatch(/^ey/);
    await expect(createRequestObject({ ...options, clientId: x509SanDnsClientId('other.example.test') })).rejects.toThrow(/DNS name/);
  });

  it('refuses to sign with a misconfigured signer or key', async () => {
    const other = await createTestSigner({ rootName: 'Other CA', signerName: 'Other signer' });
    await expect(createRequestObject({ ...options, signer: { chain: [signer.root], privateKey: signer.privateKey } })).rejects.toThrow(/self-signed/);
    await expect(createRequestObject({ ...options, signer: { chain: signer.chain, privateKey: other.privateKey } })).rejects.toThrow(
      /not the P-256 key of the leaf/,
    );
    await expect(createRequestObject({ ...options, signer: { chain: [signer.chain[0], other.root], privateKey: signer.privateKey } })).rejects.toThrow(
      /not issued by/,
    );
    await expect(createRequestObject({ ...options, clientId: x509HashClientId(other.chain[0]) })).rejects.toThrow(/x509_hash of the leaf/);
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    await expect(createRequestObject({ ...options, responseEncryptionKey: privateKey.export({ format: 'jwk' }) as never })).rejects.toThrow(
      /P-256 EC JWK|public key|kid/,
    );
    await expect(createRequestObject({ ...options, encValues: ['A128GCM'] })).rejects.toThrow(/HAIP/);
    await expect(createRequestObject({ ...options, responseUri: 'http://broker.example.test/r' })).rejects.toThrow(/https/);
    await expect(createRequestObject({ ...options, nonce: 'short' })).rejects.toThrow(/nonce/);
  });

  it('bounds the request_uri POST: wallet_metadata size, depth and type, wallet_nonce', async () => {
    expect(parseRequestUriPost({})).toEqual({});
    expect(await refusal(() => parseRequestUriPost({ wallet_metadata: 'x'.repeat(20_000) }))).toMatch(/^malformed: wallet_metadata is longer/);
    expect(await refusal(() => parseRequestUriPost({ wallet_metadata: '{"a":'.repeat(10) + '1' + '}'.repeat(10) }))).toMatch(
      /^malformed: wallet_metadata is nested deeper/,
    );
    expect(await refusal(() => parseRequestUriPost({ wallet_metadata: '[1]' }))).toBe('malformed: wallet_metadata is not a JSON object');
    expect(await refusal(() => parseRequestUriPost({ wallet_metadata: '{nope' }))).toBe('malformed: wallet_metadata is not JSON');
    expect(await refusal(() => parseRequestUriPost({ wallet_metadata: '{"__proto__":{"x":1}}' }))).toMatch(/__proto__/);
    expect(await refusal(() => parseRequestUriPost({ wallet_nonce: 'n'.repeat(257) }))).toMatch(/^malformed: wallet_nonce/);
    expect(await refusal(() => parseRequestUriPost({ wallet_nonce: ['a', 'b'] }))).toMatch(/^malformed: wallet_nonce/);
  });
});
