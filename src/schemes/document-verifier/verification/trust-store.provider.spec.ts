import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { addLogSink } from '../../../common/logging/logger.js';
import { ConfigError } from '../../../config/app-config.js';
import type { AppConfig } from '../../../config/load-config.js';
import type { VerifierConfig } from '../config/verifier-config.js';
import type { SpecimenAuthorityService } from '../specimen/specimen-authority.service.js';
import { TrustStoreProvider } from './trust-store.provider.js';

const FIXTURES = resolve('test/fixtures/icao/masterlists');
const CSCA = join(FIXTURES, 'CSCA_NL_serial6_2021.cer');
const GOOD = {
  masterLists: [join(FIXTURES, 'DE_ML_2026-05-28-08-28-45.ml')],
  masterListAnchors: [join(FIXTURES, 'DE_ROOT_CA_CSCA07.cer')],
  crls: [join(FIXTURES, 'COL.crl')],
};

type Trust = VerifierConfig['trust'];
const provider = (isProduction: boolean, trust: Partial<Trust>) =>
  new TrustStoreProvider(
    {
      isProduction,
      schemes: { 'document-verifier': { trust: { cscaPaths: [], masterLists: [], masterListAnchors: [], crls: [], crlGraceHours: 48, ...trust } } },
    } as unknown as AppConfig,
    // Never reached in these tests: production has no specimen CSCA, and customer-test builds nothing at start.
    {} as SpecimenAuthorityService,
  );
/** The problems the start-up names (its ConfigError), or none when it starts. */
const startUpProblems = async (p: TrustStoreProvider): Promise<string[]> => {
  try {
    await p.onModuleInit();
    return [];
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
};

describe('the verifier trust store provider', () => {
  let dir: string;
  // What the provider logs, kept out of the test output (and read by the customer-test case).
  let logged: string[] = [];
  let stopLogs: () => void;
  beforeAll(() => {
    stopLogs = addLogSink((line) => logged.push(line), { capture: true });
  });
  afterAll(() => stopLogs());
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'trust-'));
    logged = [];
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('tries again after a failed build, and keeps the store once built', async () => {
    const path = join(dir, 'csca.cer');
    const p = provider(true, { cscaPaths: [path] });
    await expect(p.get()).rejects.toThrow();
    copyFileSync(CSCA, path);
    const store = await p.get();
    expect(store.certificates()).toHaveLength(1);
    expect(await p.get()).toBe(store);
  });

  describe('production refuses to start on a bad trust file, naming the variable and the file', () => {
    it('TRUST_CSCA_PATHS: a missing file, a file that is no certificate, a folder without certificates', async () => {
      const missing = join(dir, 'missing.cer');
      const notCertificate = join(dir, 'placeholder.pem');
      writeFileSync(notCertificate, '<PEM CSCA certificates: -----BEGIN CERTIFICATE----- ... -----END CERTIFICATE----->\n');
      const empty = join(dir, 'empty');
      mkdirSync(empty);
      expect(await startUpProblems(provider(true, { cscaPaths: [missing, notCertificate, empty] }))).toEqual([
        `TRUST_CSCA_PATHS: ${missing}: no file or folder there`,
        expect.stringMatching(new RegExp(`^TRUST_CSCA_PATHS: ${notCertificate}: not a CSCA certificate \\(DER or PEM\\) \\(.+\\)$`)),
        `TRUST_CSCA_PATHS: ${empty}: no .cer, .crt, .der or .pem file in the folder`,
      ]);
    });

    it('TRUST_MASTERLISTS: a master list not signed under TRUST_MASTERLIST_ANCHORS, and one that is no master list', async () => {
      const dutch = join(FIXTURES, 'NL_MASTERLIST_20211207.mls');
      expect(
        await startUpProblems(provider(true, { cscaPaths: [CSCA], masterLists: [dutch, CSCA], masterListAnchors: [join(FIXTURES, 'NL_ROOT_CA.cer')] })),
      ).toEqual([
        expect.stringMatching(new RegExp(`^TRUST_MASTERLISTS: ${dutch}: not a CSCA master list signed under TRUST_MASTERLIST_ANCHORS \\(.+\\)$`)),
        expect.stringMatching(new RegExp(`^TRUST_MASTERLISTS: ${CSCA}: not a CSCA master list`)),
      ]);
    });

    it('TRUST_CRLS: a CRL no trusted CSCA signed, and a file that is no CRL', async () => {
      const colombian = join(FIXTURES, 'COL.crl');
      expect(await startUpProblems(provider(true, { cscaPaths: [CSCA], crls: [colombian, CSCA] }))).toEqual([
        expect.stringMatching(new RegExp(`^TRUST_CRLS: ${colombian}: not a CRL signed by a trusted CSCA \\(CRL\\.signature: no trusted CSCA .+\\)$`)),
        expect.stringMatching(new RegExp(`^TRUST_CRLS: ${CSCA}: not a CRL signed by a trusted CSCA \\(.+\\)$`)),
      ]);
    });

    it('names every bad file of every variable at once', async () => {
      const problems = await startUpProblems(
        provider(true, { cscaPaths: [join(dir, 'a.cer')], masterLists: [join(dir, 'b.ml')], masterListAnchors: [CSCA], crls: [join(dir, 'c.crl')] }),
      );
      expect(problems.map((p) => p.split(':')[0])).toEqual(['TRUST_CSCA_PATHS', 'TRUST_MASTERLISTS', 'TRUST_CRLS']);
    });
  });

  it('production builds the store at start and keeps it: a file removed afterwards changes nothing', async () => {
    const csca = join(dir, 'csca.cer');
    copyFileSync(CSCA, csca);
    const p = provider(true, { cscaPaths: [csca], ...GOOD });
    expect(await startUpProblems(p)).toEqual([]);
    rmSync(csca);
    const store = await p.get();
    expect(store.certificates().length).toBeGreaterThan(500);
    expect(store.revocationLists()).toHaveLength(1);
    // The Colombian CRL's nextUpdate is long past: the start says what production will do about it.
    expect(logged.some((l) => l.includes('"event":"crl_outdated"') && l.includes('refused 48 h after that'))).toBe(true);
  });

  it('customer-test only warns at start of an unreadable file, naming the variable and the file, and builds nothing yet', async () => {
    const missing = join(dir, 'missing.crl');
    expect(await startUpProblems(provider(false, { cscaPaths: [CSCA], crls: [missing] }))).toEqual([]);
    expect(logged).toEqual([
      expect.stringContaining(`"msg":"TRUST_CRLS: ${missing}: no file or folder there: the document verifier's trust store will not load until it is fixed"`),
    ]);
    expect(logged[0]).toContain('"level":40');
  });
});
