import { isReservedAddress, namesReservedAddress, resolvedUrlAddressProblem, urlAddressProblem } from './outbound-address.js';
import { outboundPost } from './outbound-fetch.js';

const PRODUCTION = { allowLoopback: false };
const CUSTOMER_TEST = { allowLoopback: true };

/** The registration-time address rule (a 400 naming the field) against the connect-time filter it answers for. */
describe('outbound address rule at registration', () => {
  it('refuses at least every address the connect-time filter refuses', async () => {
    // One address of each special range of the filter's ipaddr.js.
    const refusedAtConnect = [
      '0.0.0.0',
      '10.1.2.3',
      '100.64.0.1',
      '127.0.0.1',
      '169.254.169.254',
      '172.16.0.1',
      '192.0.0.1',
      '192.0.2.1',
      '192.31.196.1',
      '192.52.193.1',
      '192.88.99.1',
      '192.168.0.1',
      '192.175.48.1',
      '198.18.0.1',
      '198.51.100.1',
      '203.0.113.1',
      '224.0.0.1',
      '240.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      '::ffff:a9fe:a9fe',
      '::ffff:808:808',
      '::ffff:0:a9fe:a9fe',
      '64:ff9b::a9fe:a9fe',
      '64:ff9b:1::1',
      '100::1',
      '2001::1',
      '2001:2::1',
      '2001:3::1',
      '2001:4:112::1',
      '2001:db8::1',
      '2001:10::1',
      '2001:20::1',
      '2001:30::1',
      '2002:a9fe:a9fe::1',
      '2620:4f:8000::1',
      '3fff::1',
      '5f00::1',
      'fc00::1',
      'fd12::1',
      'fe80::1',
      'fec0::1',
      'ff02::1',
    ];
    for (const address of refusedAtConnect) {
      const host = address.includes(':') ? `[${address}]` : address;
      await expect(outboundPost(new URL(`http://${host}:9/cb`), PRODUCTION, { maxBytes: 1024, timeoutMs: 2000, headers: {}, body: '' })).rejects.toThrow(
        /is not allowed/,
      );
      expect([address, isReservedAddress(address, PRODUCTION)]).toEqual([address, true]);
    }
  });

  it('refuses private, link-local and IPv4-mapped addresses, and integer or shorthand IPv4, in every environment', () => {
    for (const url of [
      'https://10.0.0.1',
      'https://169.254.169.254/latest',
      'https://[::ffff:a9fe:a9fe]',
      'https://[::ffff:127.0.0.1]',
      'https://[64:ff9b::a9fe:a9fe]',
      'https://2130706433',
      'https://127.1',
      'https://0x7f.0.0.1',
      'https://%31%32%37.0.0.1/',
      'https://0177.0.0.1',
    ])
      for (const policy of [PRODUCTION, CUSTOMER_TEST]) expect([url, urlAddressProblem(url, policy)]).toEqual([url, expect.any(String)]);
    expect(urlAddressProblem('https://2130706433', CUSTOMER_TEST)).toContain('four decimal numbers');
    expect(new URL('https://2130706433').hostname).toBe('127.0.0.1');
  });

  it('refuses names that only lead inside; localhost only outside customer-test', () => {
    for (const url of [
      'https://metadata.google.internal/computeMetadata/v1/',
      'https://METADATA.google.internal./',
      'https://metadata/',
      'https://instance-data/',
      'https://printer.local/',
      'https://nas.home.arpa/',
    ])
      for (const policy of [PRODUCTION, CUSTOMER_TEST]) expect([url, urlAddressProblem(url, policy)]).toEqual([url, expect.any(String)]);
    for (const url of ['http://localhost:3000/cb', 'http://app.localhost/cb']) {
      expect(urlAddressProblem(url, PRODUCTION)).toBeDefined();
      expect(urlAddressProblem(url, CUSTOMER_TEST)).toBeUndefined();
    }
  });

  it('takes loopback written as such in customer-test only, and public addresses and names everywhere', () => {
    for (const url of ['http://127.0.0.1:8080/cb', 'http://127.0.0.2/cb', 'https://[::1]/cb']) {
      expect(urlAddressProblem(url, PRODUCTION)).toBeDefined();
      expect(urlAddressProblem(url, CUSTOMER_TEST)).toBeUndefined();
    }
    for (const url of ['https://shop.example/ciba', 'https://93.184.216.34/ciba', 'https://[2001:4860::8888]/ciba'])
      for (const policy of [PRODUCTION, CUSTOMER_TEST]) expect([url, urlAddressProblem(url, policy)]).toEqual([url, undefined]);
  });

  it('refuses a name that resolves inside; one that does not resolve is left to the connect-time filter', async () => {
    const to =
      (...addresses: string[]) =>
      async () =>
        addresses;
    expect(await resolvedUrlAddressProblem('https://shop.example/cb', PRODUCTION, to('93.184.216.34', '10.0.0.7'))).toContain('resolves to');
    expect(await resolvedUrlAddressProblem('https://shop.example/cb', CUSTOMER_TEST, to('169.254.169.254'))).toContain('resolves to');
    expect(await resolvedUrlAddressProblem('https://shop.example/cb', PRODUCTION, to('127.0.0.1'))).toContain('resolves to');
    expect(await resolvedUrlAddressProblem('https://shop.example/cb', CUSTOMER_TEST, to('127.0.0.1'))).toBeUndefined();
    expect(await resolvedUrlAddressProblem('https://shop.example/cb', PRODUCTION, to('93.184.216.34', '2001:4860::8888'))).toBeUndefined();
    expect(await resolvedUrlAddressProblem('https://shop.example/cb', PRODUCTION, async () => Promise.reject(new Error('ENOTFOUND')))).toBeUndefined();
    expect(await resolvedUrlAddressProblem('https://10.0.0.1/cb', PRODUCTION, to())).toContain('reserved address');
  });

  it('refuses a production issuer at an inside address, not one at a public IPv4 address', () => {
    expect(namesReservedAddress('http://169.254.169.254/latest')).toBe(true);
    expect(namesReservedAddress('https://93.184.216.34/oidc')).toBe(false);
  });
});
