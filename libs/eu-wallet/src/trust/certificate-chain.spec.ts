import { verifyCertificateChain, WalletCheckError, createTestSigner, type TestSigner } from '@identity-broker/eu-wallet';

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    if (e instanceof WalletCheckError) return `${e.code}: ${e.message}`;
    throw e;
  }
  return 'accepted';
};

describe('issuer certificate chains (x5c, x5chain) against a trust list', () => {
  const now = new Date();
  let pid: TestSigner;
  let other: TestSigner;

  beforeAll(async () => {
    [pid, other] = await Promise.all([
      createTestSigner({ rootName: 'Test PID Provider CA', signerName: 'Test PID Provider' }),
      createTestSigner({ rootName: 'Other CA', signerName: 'Other signer' }),
    ]);
  });

  it('accepts the signer alone or with its root, and names the anchor it ends at', () => {
    for (const presented of [[pid.chain[0]], pid.chain]) {
      const { leaf, anchor } = verifyCertificateChain(presented, [other.root, pid.root], now);
      expect(leaf.subject).toContain('CN=Test PID Provider');
      expect(Buffer.from(anchor.raw).equals(Buffer.from(pid.root))).toBe(true);
    }
  });

  it('refuses a chain ending at no trusted anchor, and a root swapped in under the signer', () => {
    expect(refusal(() => verifyCertificateChain(pid.chain, [other.root], now))).toMatch(/^untrusted_issuer: .*no trusted anchor/);
    expect(refusal(() => verifyCertificateChain([pid.chain[0], other.root], [other.root], now))).toMatch(
      /^untrusted_issuer: certificate 0 .*not signed by certificate 1/,
    );
  });

  it('refuses certificates not valid now: expired, not yet valid', async () => {
    const expired = await createTestSigner({
      rootName: 'Old CA',
      signerName: 'Old signer',
      notBefore: new Date('2020-01-01'),
      notAfter: new Date('2021-01-01'),
    });
    expect(refusal(() => verifyCertificateChain(expired.chain, [expired.root], now))).toMatch(/^untrusted_issuer: certificate 0 .*not valid at/);
    const future = new Date(now.getTime() + 86_400_000);
    const later = await createTestSigner({ rootName: 'New CA', signerName: 'New signer', notBefore: future });
    expect(refusal(() => verifyCertificateChain(later.chain, [later.root], now))).toMatch(/^untrusted_issuer: /);
  });

  it('refuses a CA certificate as the signer, and a root presented as the signer', async () => {
    const caSigner = await createTestSigner({ rootName: 'CA', signerName: 'CA signer', signerIsCa: true });
    expect(refusal(() => verifyCertificateChain(caSigner.chain, [caSigner.root], now))).toMatch(/^untrusted_issuer: the signing certificate is a CA/);
    expect(refusal(() => verifyCertificateChain([pid.root], [pid.root], now))).toMatch(/^untrusted_issuer: the signing certificate is a CA/);
  });

  it('refuses what is not a certificate, no chain and an overlong chain as malformed', () => {
    expect(refusal(() => verifyCertificateChain([new Uint8Array([0x30, 0x03, 0x02, 0x01, 0x01])], [pid.root], now))).toMatch(/^malformed: certificate 0/);
    expect(refusal(() => verifyCertificateChain([], [pid.root], now))).toBe('malformed: no certificate chain');
    expect(refusal(() => verifyCertificateChain(Array(6).fill(pid.chain[0]), [pid.root], now))).toMatch(/^malformed: .*longer than 5/);
  });
});
