import {
  RevocationChecker,
  StatusListChecker,
  verifySdJwtVcPresentation,
  createStatusList,
  issueSdJwtVc,
  issueTestCrl,
  createTestRoot,
  createTestSigner,
  issueTestLeaf,
  type TestCertificate,
  type TestSigner,
} from '@identity-broker/eu-wallet';
import { AUDIENCE, NONCE, holderKeys, outcome, present } from './sd-jwt-holder.js';

const DAY = 86_400_000;
const ROOT_CRL = 'http://pid-ca.test.invalid/root.crl';
const INTERMEDIATE_CRL = 'http://pid-ca.test.invalid/intermediate.crl';
const STATUS_URI = 'https://pid-provider.test.invalid/status/1';

/**
 * Revocation of an SD-JWT VC issuer's x5c chain (RFC 5280 §6.3; HAIP 1.0 x5c): the leaf on its intermediate CA's CRL,
 * the intermediate on the root's, each at the distribution point its certificate names; and the same for the
 * signer of the Token Status List. The holder side is @meeco/sd-jwt (libs/eu-wallet/test/sd-jwt-holder.ts).
 */
describe('SD-JWT VC presentation: CRLs of the x5c chain', () => {
  const holder = holderKeys();
  let root: TestCertificate;
  let intermediate: TestCertificate;
  let pid: TestSigner;
  let served: Map<string, Uint8Array>;

  const revocation = () =>
    new RevocationChecker({
      crls: [],
      whenUnavailable: 'refuse',
      fetchCrl: async (url) => {
        const crl = served.get(url);
        if (!crl) throw new Error('ECONNREFUSED');
        return crl;
      },
    });
  const presentation = async () =>
    present(await issueSdJwtVc({ signer: pid, holderKey: holder.publicKey, status: { uri: STATUS_URI, idx: 0 } }), {
      paths: ['$.given_name'],
      holderKey: holder.privateKey,
    });
  const verify = async (presented: string, checker = revocation()) =>
    verifySdJwtVcPresentation({
      presentation: presented,
      trustAnchors: [root.der],
      acceptedVcts: ['urn:eudi:pid:1'],
      nonce: NONCE,
      audience: AUDIENCE,
      now: new Date(),
      revocation: checker,
    });

  beforeAll(async () => {
    const dates = { notBefore: new Date(Date.now() - DAY), notAfter: new Date(Date.now() + 365 * DAY) };
    root = await createTestRoot({ ...dates, commonName: 'PID Provider Root', pathLength: 1, crlUrls: [ROOT_CRL] });
    const ca = await issueTestLeaf(root, { ...dates, commonName: 'PID Provider Issuing CA', isCa: true, crlUrls: [ROOT_CRL] });
    intermediate = { der: ca.der, privateKey: ca.privateKey };
    // x5c is [leaf, intermediate]: the root is the anchor, never sent (HAIP 1.0).
    pid = await createTestSigner({
      ...dates,
      root: intermediate,
      rootName: 'unused',
      signerName: 'PID Provider',
      uri: 'https://pid-provider.test.invalid',
      crlUrls: [INTERMEDIATE_CRL],
    });
  });
  beforeEach(async () => {
    served = new Map([
      [ROOT_CRL, await issueTestCrl(root)],
      [INTERMEDIATE_CRL, await issueTestCrl(intermediate)],
    ]);
  });

  it('accepts a chain none of whose certificates is revoked', async () => {
    expect(await outcome(async () => verify(await presentation()))).toBe('accepted');
  });

  it("refuses a credential whose x5c leaf is on the intermediate CA's CRL", async () => {
    served.set(INTERMEDIATE_CRL, await issueTestCrl(intermediate, { revoked: [pid.chain[0]] }));
    expect(await outcome(async () => verify(await presentation()))).toMatch(/^certificate_revoked: .*CN=PID Provider is revoked/);
  });

  it("refuses a credential whose intermediate CA is on the root's CRL", async () => {
    served.set(ROOT_CRL, await issueTestCrl(root, { revoked: [intermediate.der] }));
    expect(await outcome(async () => verify(await presentation()))).toMatch(/^certificate_revoked: .*PID Provider Issuing CA is revoked/);
  });

  it("refuses (production policy) when the intermediate's CRL is unreachable", async () => {
    served.delete(INTERMEDIATE_CRL);
    expect(await outcome(async () => verify(await presentation()))).toMatch(/^revocation_unknown: .*could not be fetched/);
  });

  it("refuses the status of a credential whose status list signer's certificate is revoked, with the CRL's code", async () => {
    const checker = revocation();
    const verified = await verify(await presentation(), checker);
    const statusSigner = await createTestSigner({ root: intermediate, rootName: 'unused', signerName: 'PID Provider', crlUrls: [INTERMEDIATE_CRL] });
    served.set(INTERMEDIATE_CRL, await issueTestCrl(intermediate, { revoked: [statusSigner.chain[0]] }));
    const lists = new StatusListChecker({
      fetchStatusList: async () => createStatusList({ signer: statusSigner, uri: STATUS_URI, bits: 1, values: [0, 0] }),
      trustAnchors: [root.der],
      revocation: new RevocationChecker({ crls: [], whenUnavailable: 'refuse', fetchCrl: async (url) => served.get(url)! }),
    });
    expect(await outcome(() => lists.check(verified.status!, verified.signer))).toMatch(/^certificate_revoked: /);
  });
});
