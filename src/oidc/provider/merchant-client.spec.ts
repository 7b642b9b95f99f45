import type { MerchantEntity } from '../../merchants/merchant.entity.js';
import { toClientMetadata } from './merchant-client.js';

const merchant = (fields: Partial<MerchantEntity>) =>
  ({
    clientId: 'm_bank',
    clientSecret: 'secret',
    name: 'Example Bank',
    redirectUris: ['https://bank.example/cb'],
    tokenEndpointAuthMethod: 'client_secret_basic',
    idTokenSignedResponseAlg: 'RS256',
    tlsClientCertificateBoundAccessTokens: false,
    ...fields,
  }) as MerchantEntity & { clientSecret: string };

describe('a merchant as the engine client of RFC 8705', () => {
  it('§2.1.2: hands over the registered subject member of a tls_client_auth merchant, and none of another method', () => {
    const bank = toClientMetadata(
      merchant({ tokenEndpointAuthMethod: 'tls_client_auth', tlsClientAuthSubjectDn: 'CN=rp.bank.example', tlsClientCertificateBoundAccessTokens: true }),
    );
    expect(bank).toMatchObject({ token_endpoint_auth_method: 'tls_client_auth', tls_client_auth_subject_dn: 'CN=rp.bank.example' });
    expect(bank.tls_client_certificate_bound_access_tokens).toBe(true);
    const other = toClientMetadata(merchant({ tlsClientAuthSanDns: 'rp.bank.example' }));
    expect(other.tls_client_auth_san_dns).toBeUndefined();
    expect(other.tls_client_certificate_bound_access_tokens).toBe(false);
  });

  it('§2.2: gives a self-signed merchant every certificate of its set (to roll them), marked for signing only', () => {
    const keys = [
      { kty: 'RSA', kid: 'enc', n: 'c', e: 'AQAB', use: 'enc' },
      { kty: 'RSA', kid: 'old', n: 'a', e: 'AQAB', x5c: ['MIIold'] },
      { kty: 'RSA', kid: 'new', n: 'b', e: 'AQAB', x5c: ['MIInew'] },
    ];
    const shop = toClientMetadata(merchant({ tokenEndpointAuthMethod: 'self_signed_tls_client_auth' }), keys);
    const given = (shop.jwks as { keys: Record<string, unknown>[] }).keys;
    expect(given.map((k) => [k.kid, k.use])).toEqual([
      ['enc', 'enc'],
      ['old', 'sig'],
      ['new', 'sig'],
    ]);
    // Any other method: only the chosen keys, as before.
    const plain = toClientMetadata(merchant({}), keys);
    expect((plain.jwks as { keys: Record<string, unknown>[] }).keys.map((k) => k.kid)).toEqual(['enc', 'old']);
  });
});
