import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fetchJwks } from '@openid4vc/oauth2';
import { TypeMetadataFormatSchema } from '@sd-jwt/sd-jwt-vc';
import {
  authorizationServerMetadata,
  credentialIssuerMetadata,
  wellKnownUrl,
  credentialOffer,
  credentialOfferLink,
  verifiedIdentityTypeMetadata,
  cachingFetch,
  CredentialIssuerError,
  type ClaimDescription,
  type LocalizedDisplay,
} from '@identity-broker/eu-wallet';

const BASE = 'https://broker.test.invalid';
const ISSUER = `${BASE}/vci`;
const VCT = `${BASE}/vct/verified-document-identity`;
const DISPLAY: LocalizedDisplay[] = [
  { locale: 'en', name: 'Verified identity', description: 'Identity from a verified document' },
  { locale: 'de', name: 'Geprüfte Identität' },
];
const CLAIMS: ClaimDescription[] = [
  {
    path: ['name'],
    display: [
      { locale: 'en', name: 'Name' },
      { locale: 'de', name: 'Name' },
    ],
  },
  { path: ['age_equal_or_over', '18'], display: [{ locale: 'en', name: 'Aged 18 or over', description: 'At least 18 years old' }] },
];

/** OpenID4VCI 1.0 §12.2 and §4.1, RFC 8414, and the SD-JWT VC type metadata: the documents the issuer serves. */
describe('OpenID4VCI metadata, offer and type metadata', () => {
  it('makes 1.0 issuer metadata: nonce endpoint, batch size, dc+sd-jwt with vct, display and claims inside credential_metadata', () => {
    const metadata = credentialIssuerMetadata({
      credentialIssuer: ISSUER,
      configurationId: 'verified_document_identity',
      vct: VCT,
      display: DISPLAY,
      claims: CLAIMS,
      batchSize: 10,
      signingAlgs: ['ES256'],
    });
    expect(metadata).toEqual({
      credential_issuer: ISSUER,
      credential_endpoint: `${ISSUER}/credential`,
      nonce_endpoint: `${ISSUER}/nonce`,
      batch_credential_issuance: { batch_size: 10 },
      credential_configurations_supported: {
        verified_document_identity: {
          format: 'dc+sd-jwt',
          vct: VCT,
          cryptographic_binding_methods_supported: ['jwk'],
          credential_signing_alg_values_supported: ['ES256'],
          proof_types_supported: { jwt: { proof_signing_alg_values_supported: ['ES256'] } },
          credential_metadata: {
            display: [
              { locale: 'en', name: 'Verified identity', description: 'Identity from a verified document' },
              { locale: 'de', name: 'Geprüfte Identität' },
            ],
            claims: [
              {
                path: ['name'],
                display: [
                  { locale: 'en', name: 'Name' },
                  { locale: 'de', name: 'Name' },
                ],
              },
              { path: ['age_equal_or_over', '18'], display: [{ locale: 'en', name: 'Aged 18 or over' }] },
            ],
          },
        },
      },
    });
    expect(metadata).not.toHaveProperty('authorization_servers');
    // §12.2.4: batch_size is 2 or more; a size of 1 is the parameter left out.
    expect(
      credentialIssuerMetadata({ credentialIssuer: ISSUER, configurationId: 'x', vct: VCT, display: DISPLAY, claims: [], batchSize: 1 }),
    ).not.toHaveProperty('batch_credential_issuance');
  });

  it('makes authorization server metadata for the anonymous pre-authorized code grant with DPoP', () => {
    expect(authorizationServerMetadata({ issuer: ISSUER, tokenEndpoint: `${ISSUER}/token`, dpopSigningAlgs: ['ES256'] })).toEqual({
      issuer: ISSUER,
      token_endpoint: `${ISSUER}/token`,
      grant_types_supported: ['urn:ietf:params:oauth:grant-type:pre-authorized_code'],
      'pre-authorized_grant_anonymous_access_supported': true,
      dpop_signing_alg_values_supported: ['ES256'],
      code_challenge_methods_supported: ['S256'],
    });
    const withCode = authorizationServerMetadata({ issuer: ISSUER, tokenEndpoint: `${ISSUER}/token`, authorizationEndpoint: `${ISSUER}/authorize` });
    expect(withCode).toMatchObject({
      authorization_endpoint: `${ISSUER}/authorize`,
      response_types_supported: ['code'],
      grant_types_supported: ['urn:ietf:params:oauth:grant-type:pre-authorized_code', 'authorization_code'],
    });
    expect(() => authorizationServerMetadata({ issuer: 'not a url', tokenEndpoint: 'x' })).toThrow();
  });

  it('puts the well-known segment before the path (OpenID4VCI 1.0 §12.2.2, RFC 8414 §3.1)', () => {
    expect(wellKnownUrl(ISSUER, 'openid-credential-issuer')).toBe(`${BASE}/.well-known/openid-credential-issuer/vci`);
    expect(wellKnownUrl(`${ISSUER}/`, 'oauth-authorization-server')).toBe(`${BASE}/.well-known/oauth-authorization-server/vci`);
    expect(wellKnownUrl(BASE, 'oauth-authorization-server')).toBe(`${BASE}/.well-known/oauth-authorization-server`);
    expect(() => wellKnownUrl(`${ISSUER}?x=1`, 'openid-credential-issuer')).toThrow();
  });

  it('makes the 1.0 credential offer (credential_configuration_ids, tx_code object) and its link by reference', async () => {
    const offer = await credentialOffer({
      credentialIssuer: ISSUER,
      configurationIds: ['verified_document_identity'],
      preAuthorizedCode: 'pac-4Nw0rT8qLx2VbZ7ePj',
      txCode: { length: 6, input_mode: 'numeric', description: 'The code shown on the page' },
    });
    expect(offer).toEqual({
      credential_issuer: ISSUER,
      credential_configuration_ids: ['verified_document_identity'],
      grants: {
        'urn:ietf:params:oauth:grant-type:pre-authorized_code': {
          'pre-authorized_code': 'pac-4Nw0rT8qLx2VbZ7ePj',
          tx_code: { length: 6, input_mode: 'numeric', description: 'The code shown on the page' },
        },
      },
    });
    expect(credentialOfferLink({ offerUri: `${ISSUER}/offers/o-1` })).toBe(
      'openid-credential-offer://?credential_offer_uri=https%3A%2F%2Fbroker.test.invalid%2Fvci%2Foffers%2Fo-1',
    );
    expect(() => credentialOfferLink({ offerUri: 'http://broker.test.invalid/vci/offers/o-1' })).toThrow(/https/);
    await expect(
      credentialOffer({
        credentialIssuer: ISSUER,
        configurationIds: ['x'],
        preAuthorizedCode: 'short',
        txCode: { length: 6, input_mode: 'numeric', description: '' },
      }),
    ).rejects.toThrow(/pre-authorized code/);
    await expect(
      credentialOffer({
        credentialIssuer: ISSUER,
        configurationIds: ['x'],
        preAuthorizedCode: 'p'.repeat(32),
        txCode: { length: 6, input_mode: 'numeric', description: 'd'.repeat(301) },
      }),
    ).rejects.toThrow(/300/);
  });

  it("makes SD-JWT VC type metadata with the current drafts' names (locale, label, sd), valid for @sd-jwt/sd-jwt-vc", () => {
    const document = verifiedIdentityTypeMetadata({
      vct: VCT,
      display: DISPLAY,
      claims: [...CLAIMS, { path: ['assurance'], display: [{ locale: 'en', name: 'Assurance' }], sd: 'never' }],
    });
    expect(document).toEqual({
      vct: VCT,
      name: 'Verified identity',
      description: 'Identity from a verified document',
      display: [
        { locale: 'en', name: 'Verified identity', description: 'Identity from a verified document' },
        { locale: 'de', name: 'Geprüfte Identität' },
      ],
      claims: [
        {
          path: ['name'],
          display: [
            { locale: 'en', label: 'Name' },
            { locale: 'de', label: 'Name' },
          ],
          sd: 'always',
        },
        { path: ['age_equal_or_over', '18'], display: [{ locale: 'en', label: 'Aged 18 or over', description: 'At least 18 years old' }], sd: 'always' },
        { path: ['assurance'], display: [{ locale: 'en', label: 'Assurance' }], sd: 'never' },
      ],
    });
    expect(JSON.stringify(document)).not.toContain('"lang"');
    expect(TypeMetadataFormatSchema.safeParse(document).success).toBe(true);
  });

  it('gives one-line error objects, whatever the description it is given', () => {
    const error = new CredentialIssuerError('invalid_proof', 'line one\r\nline "two"\\');
    expect(error.toResponse()).toEqual({ error: 'invalid_proof', error_description: "line one line 'two'/" });
    expect(new CredentialIssuerError('invalid_nonce', 'x'.repeat(1000)).description.length).toBe(300);
  });

  describe('caching fetch for the libraries that fetch keys per request', () => {
    let server: Server;
    let hits: number;
    let status: number;
    let url: string;
    beforeAll(async () => {
      server = createServer((_, res) => {
        hits += 1;
        res.writeHead(status, { 'content-type': 'application/jwk-set+json' });
        res.end(
          JSON.stringify({
            keys: [{ kty: 'EC', crv: 'P-256', x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU', y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0' }],
          }),
        );
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
    beforeEach(() => {
      hits = 0;
      status = 200;
    });

    it("@openid4vc/oauth2's fetchJwks asks every time with a plain fetch, once per ttl with cachingFetch", async () => {
      for (let i = 0; i < 3; i++) await fetchJwks(url, fetch);
      expect(hits).toBe(3);
      hits = 0;
      let clock = new Date();
      const cached = cachingFetch(fetch, { ttlSeconds: 60, now: () => clock });
      const sets = await Promise.all([fetchJwks(url, cached), fetchJwks(url, cached)]);
      for (let i = 0; i < 3; i++) sets.push(await fetchJwks(url, cached));
      expect(hits).toBe(1);
      expect(sets.every((s) => s.keys.length === 1)).toBe(true);
      clock = new Date(clock.getTime() + 61_000);
      await fetchJwks(url, cached);
      expect(hits).toBe(2);
    });

    it('does not keep a failed answer, nor other methods', async () => {
      const cached = cachingFetch(fetch);
      status = 503;
      await expect(fetchJwks(url, cached)).rejects.toThrow();
      status = 200;
      await fetchJwks(url, cached);
      await fetchJwks(url, cached);
      expect(hits).toBe(2);
      await cached(url, { method: 'POST', body: 'x' });
      await cached(url, { method: 'POST', body: 'x' });
      expect(hits).toBe(4);
    });
  });
});
