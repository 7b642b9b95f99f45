// @peculiar/x509 (the delta CRL extension below) needs the Reflect metadata polyfill first.
import 'reflect-metadata';
import { X509Certificate } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import {
  parseCrl,
  RevocationChecker,
  verifyMdocPresentation,
  type RevocationCheckerOptions,
  issueTestCrl,
  createTestRoot,
  createTestSigner,
  type TestCertificate,
  type TestSigner,
} from '@identity-broker/eu-wallet';
import { refusedWith } from '../../../test/support/mdoc-expect.js';
import { mdocWorld, PID, transcriptFor, type MdocWorld } from '../../../test/support/mdoc-fixtures.js';

const DAY = 86_400_000;
const IACA_CRL = 'http://iaca.test.invalid/crl/ut.crl';

/**
 * Revocation of the mdoc issuer's certificates (ISO/IEC 18013-5 Annex B; RFC 5280 §5, §6.3): the Document Signer and
 * the IACA, against the IACA's CRL at the distribution point the certificates name (served by a stub) or configured.
 * Presentations are made by the holder library (@auth0/mdl, test/support/mdoc-holder.ts).
 */
describe('mdoc presentation: CRLs of the IACA', () => {
  let world: MdocWorld;
  let iaca: TestCertificate;
  let ds: TestSigner;
  let revokedDs: TestSigner;
  let served: Map<string, Uint8Array | Error>;
  let fetches: string[];
  let clock: Date;
  let warnings: { certificate: string; reasons: string[] }[];

  const signerUnder = (root: TestCertificate, name: string, crlUrls?: string[]) =>
    createTestSigner({ root, rootName: 'unused', signerName: name, country: 'UT', crlUrls });
  const checker = (options: Partial<RevocationCheckerOptions> = {}) =>
    new RevocationChecker({
      crls: [],
      whenUnavailable: 'refuse',
      now: () => clock,
      warn: (facts) => warnings.push(facts),
      fetchCrl: async (url) => {
        fetches.push(url);
        const answer = served.get(url);
        if (!answer) throw new Error('ECONNREFUSED');
        if (answer instanceof Error) throw answer;
        return answer;
      },
      ...options,
    });
  // Valid from a minute back: the checks run on `clock`, taken before the mdoc is issued.
  const presentBy = async (signer: TestSigner) => world.present({ mdoc: await world.issue({ signer, validFrom: new Date(Date.now() - 60_000) }) });
  const verify = (deviceResponse: Uint8Array, revocation: RevocationChecker, anchors = [iaca.der]) =>
    verifyMdocPresentation({ deviceResponse, sessionTranscript: transcriptFor(), trustAnchors: anchors, expectedDocType: PID.docType, now: clock, revocation });
  const accepted = async (promise: Promise<unknown>) => await promise.then(() => 'accepted');

  beforeAll(async () => {
    world = await mdocWorld();
    iaca = await createTestRoot({
      commonName: 'Revocation Test IACA',
      country: 'UT',
      notBefore: new Date(Date.now() - DAY),
      notAfter: new Date(Date.now() + 365 * DAY),
      crlUrls: [IACA_CRL],
    });
    [ds, revokedDs] = await Promise.all([signerUnder(iaca, 'Document Signer 1', [IACA_CRL]), signerUnder(iaca, 'Document Signer 2', [IACA_CRL])]);
  });
  beforeEach(async () => {
    clock = new Date();
    fetches = [];
    warnings = [];
    served = new Map([[IACA_CRL, await issueTestCrl(iaca, { revoked: [revokedDs.chain[0]] })]]);
  });

  it("refuses an mdoc whose Document Signer is on the IACA's CRL, and accepts one whose Document Signer is not", async () => {
    const revocation = checker();
    const error = await refusedWith(verify(await presentBy(revokedDs), revocation), 'certificate_revoked');
    expect(error.message).toMatch(/Document Signer 2 is revoked/);
    expect(await accepted(verify(await presentBy(ds), revocation))).toBe('accepted');
    // One fetch for both presentations and for the IACA's own entry: the CRL is cached until its nextUpdate.
    expect(fetches).toEqual([IACA_CRL]);
  });

  it('refuses every mdoc of an IACA that lists itself on its own CRL', async () => {
    served.set(IACA_CRL, await issueTestCrl(iaca, { revoked: [iaca.der] }));
    const error = await refusedWith(verify(await presentBy(ds), checker()), 'certificate_revoked');
    expect(error.message).toMatch(/Revocation Test IACA is revoked/);
  });

  it('reads a configured CRL (WALLET_TRUST_CRLS) for certificates that name no distribution point', async () => {
    const plainIaca = await createTestRoot({
      commonName: 'Plain IACA',
      country: 'UT',
      notBefore: new Date(Date.now() - DAY),
      notAfter: new Date(Date.now() + 365 * DAY),
    });
    const plainDs = await signerUnder(plainIaca, 'Plain Document Signer');
    const presented = await presentBy(plainDs);
    // No distribution point and no CRL of that IACA: nothing to check, accepted without a fetch (documented).
    expect(await accepted(verify(presented, checker(), [plainIaca.der]))).toBe('accepted');
    expect(fetches).toEqual([]);
    const configured = parseCrl(await issueTestCrl(plainIaca, { revoked: [plainDs.chain[0]] }));
    await refusedWith(verify(presented, checker({ crls: [configured] }), [plainIaca.der]), 'certificate_revoked');
    // A configured CRL that is past its nextUpdate: the status is unknown.
    const stale = parseCrl(await issueTestCrl(plainIaca, { thisUpdate: new Date(Date.now() - 3 * DAY), nextUpdate: new Date(Date.now() - DAY) }));
    await refusedWith(verify(presented, checker({ crls: [stale] }), [plainIaca.der]), 'revocation_unknown');
  });

  it('refuses (production) an mdoc whose CRL cannot be had: unreachable, past nextUpdate, without nextUpdate, not signed by the IACA, a delta CRL', async () => {
    const presented = await presentBy(ds);
    const stranger = await createTestRoot({
      commonName: 'Revocation Test IACA',
      country: 'UT',
      notBefore: new Date(Date.now() - DAY),
      notAfter: new Date(Date.now() + DAY),
    });
    const cases: [string, Uint8Array | Error, RegExp][] = [
      ['unreachable', new Error('ECONNREFUSED'), /could not be fetched/],
      ['stale', await issueTestCrl(iaca, { thisUpdate: new Date(Date.now() - 3 * DAY), nextUpdate: new Date(Date.now() - DAY) }), /past its nextUpdate/],
      ['no nextUpdate', await issueTestCrl(iaca, { nextUpdate: null }), /no nextUpdate/],
      ['forged', await issueTestCrl(stranger, {}), /signature is not by the certificate issuer/],
      ['delta', await issueTestCrl(iaca, { extensions: [new x509.Extension('2.5.29.27', true, new Uint8Array([2, 1, 1]))] }), /delta CRL/],
      ['garbage', new Uint8Array([1, 2, 3]), /not a CRL/],
    ];
    for (const [name, answer, reason] of cases) {
      served.set(IACA_CRL, answer);
      const error = await refusedWith(verify(presented, checker()), 'revocation_unknown');
      expect([name, error.message]).toEqual([name, expect.stringMatching(reason)]);
    }
  });

  it('accepts (customer-test) an mdoc whose CRL cannot be had, with a warning that names issuers only', async () => {
    served.delete(IACA_CRL);
    expect(await accepted(verify(await presentBy(ds), checker({ whenUnavailable: 'warn' })))).toBe('accepted');
    expect(warnings.map((w) => w.certificate)).toEqual([expect.stringMatching(/Document Signer 1/), expect.stringMatching(/Revocation Test IACA/)]);
    expect(JSON.stringify(warnings)).not.toMatch(/Mustermann|Erika|1964/);
    // A revoked certificate is refused in customer-test too.
    served.set(IACA_CRL, await issueTestCrl(iaca, { revoked: [revokedDs.chain[0]] }));
    await refusedWith(verify(await presentBy(revokedDs), checker({ whenUnavailable: 'warn' })), 'certificate_revoked');
  });

  it('fetches a CRL again at its nextUpdate (or after maxCacheSeconds), keeps using a current copy when that fetch fails, and shares concurrent fetches', async () => {
    served.set(IACA_CRL, await issueTestCrl(iaca, { nextUpdate: new Date(clock.getTime() + 2 * 3600_000) }));
    const revocation = checker({ maxCacheSeconds: 3600 });
    const presented = await presentBy(ds);
    await Promise.all([verify(presented, revocation), verify(presented, revocation)]);
    expect(fetches).toHaveLength(1);
    clock = new Date(clock.getTime() + 3601_000);
    served.set(IACA_CRL, new Error('ECONNREFUSED'));
    expect(await accepted(verify(presented, revocation))).toBe('accepted');
    expect(fetches).toHaveLength(2);
    clock = new Date(clock.getTime() + 3600_000);
    await refusedWith(verify(presented, revocation), 'revocation_unknown');
    served.set(IACA_CRL, await issueTestCrl(iaca, { thisUpdate: clock, revoked: [ds.chain[0]] }));
    await refusedWith(verify(presented, revocation), 'certificate_revoked');
  });

  it('checks the chain once it is trusted and signed: a foreign chain is refused untrusted_issuer without any fetch', async () => {
    const foreign = await createTestSigner({ rootName: 'Foreign IACA', signerName: 'Foreign DS', country: 'UT', crlUrls: ['http://foreign.test.invalid/crl'] });
    await refusedWith(verify(await presentBy(foreign), checker()), 'untrusted_issuer');
    expect(fetches).toEqual([]);
    expect(new X509Certificate(foreign.chain[0]).subject).toMatch(/Foreign DS/);
  });
});
