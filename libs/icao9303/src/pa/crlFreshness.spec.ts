/** How current the CRLs behind a chain are (RFC 5280 §5.1.2.5, §6.3.3 (a)(1); 9303-12 §7.1.4), with generated PKIs. */
import { verifyDocument, STATUS, type CrlFreshnessPolicy, createSpecimenAuthority, issueSpecimenDocument, issueSpecimenCrl } from '@identity-broker/icao9303';

const hour = 3600_000;
const day = 24 * hour;
const NOW = new Date();
const REFUSE: CrlFreshnessPolicy = { graceHours: 48, outdated: 'refuse' };
const WARN: CrlFreshnessPolicy = { graceHours: 48, outdated: 'warn' };

describe('CRL freshness (passive authentication, the chain’s revocation half)', () => {
  let authority: Awaited<ReturnType<typeof createSpecimenAuthority>>;
  let doc: Awaited<ReturnType<typeof issueSpecimenDocument>>;
  beforeAll(async () => {
    authority = await createSpecimenAuthority({ notBefore: new Date(NOW.getTime() - 400 * day) });
    doc = await issueSpecimenDocument(authority, { activeAuthentication: false, signingTime: new Date(NOW.getTime() - 200 * day) });
  });

  /** A store trusting the CSCA with CRLs whose nextUpdate lies `due` ms from now (issueSpecimenCrl: nextUpdate = at + 30 days). */
  const storeWithCrls = async (...due: number[]) => {
    const store = authority.trustStore();
    for (const d of due) store.addCrl(await issueSpecimenCrl(authority, ['7777'], new Date(NOW.getTime() + d - 30 * day)));
    return store;
  };
  const verify = async (policy: CrlFreshnessPolicy | undefined, ...due: number[]) =>
    verifyDocument({ sod: doc.sod, dataGroups: doc.dataGroups, trustStore: await storeWithCrls(...due), at: NOW, crlPolicy: policy });

  it('passes a CRL before its nextUpdate, saying it is current', async () => {
    const r = await verify(REFUSE, 5 * day);
    expect(r.status).toBe(STATUS.PASS);
    expect(r.checks.crlFreshness).toMatchObject({ ok: true, code: 'CRL_CURRENT', crl: { issuer: authority.csca.certificate.subject } });
    expect(r.checks.crlFreshness.reason).toBeUndefined();
  });

  it('passes a CRL past its nextUpdate but within the grace, saying so', async () => {
    const r = await verify(REFUSE, -10 * hour);
    expect(r.status).toBe(STATUS.PASS);
    expect(r.failures).toEqual([]);
    expect(r.checks.crlFreshness).toMatchObject({ ok: true, code: 'CRL_OUTDATED_IN_GRACE', graceHours: 48 });
    expect(r.checks.crlFreshness.reason).toMatch(/within the grace of 48 h \(RFC 5280 §6\.3\.3 \(a\)\(1\)\)/);
  });

  it('refuses a CRL past nextUpdate plus the grace when the policy refuses (production): the chain fails', async () => {
    const r = await verify(REFUSE, -49 * hour);
    expect(r.status).toBe(STATUS.BAD_COUNTRY_SIGNER_CHAIN);
    expect(r.checks.certificateChain.ok).toBe(true);
    expect(r.checks.crlFreshness).toMatchObject({ ok: false, code: 'CRL_OUTDATED' });
    expect(r.failures).toEqual([
      {
        status: STATUS.BAD_COUNTRY_SIGNER_CHAIN,
        check: 'crlFreshness',
        reason: expect.stringMatching(
          /^CRL_OUTDATED: the CRL of ".+" was due for replacement at .+, more than 48 h before .+ refused \(RFC 5280 §6\.3\.3 \(a\)\(1\); 9303-12 §7\.1\.4\)$/,
        ),
      },
    ]);
  });

  it('accepts the same CRL with a warning when the policy warns (customer-test)', async () => {
    const r = await verify(WARN, -49 * hour);
    expect(r.status).toBe(STATUS.PASS);
    expect(r.failures).toEqual([]);
    expect(r.checks.crlFreshness).toMatchObject({ ok: true, code: 'CRL_OUTDATED', reason: expect.stringContaining('accepted with this warning') });
  });

  it('judges by the freshest CRL of an issuer, and reports an outdated one by default without refusing it', async () => {
    expect((await verify(REFUSE, -60 * day, 5 * day)).checks.crlFreshness.code).toBe('CRL_CURRENT');
    const byDefault = await verify(undefined, -hour);
    expect([byDefault.status, byDefault.checks.crlFreshness.code, byDefault.checks.crlFreshness.ok]).toEqual([STATUS.PASS, 'CRL_OUTDATED', true]);
  });

  it('says no CRL covers the path when none is loaded (no revocation check, not a failure)', async () => {
    const r = await verify(REFUSE);
    expect(r.status).toBe(STATUS.PASS);
    expect(r.checks.crlFreshness).toEqual({ ok: true, code: 'CRL_NONE', graceHours: 48 });
  });
});
