/**
 * Property-based robustness: random mutations of valid files never make the library throw anything but
 * Icao9303Error, and a mutation of a data group, a hash, the signature or a signed attribute never yields PASS.
 */
import fc from 'fast-check';
import { verifyDocument, parseLdsFile, parseSod, TrustStore, Icao9303Error, STATUS } from '@identity-broker/icao9303';
import { fixture } from './fixtures.js';

/** ICAO_FUZZ_SCALE=10 npm test -- libs/icao9303/test/fuzz runs ten times more cases (kept small for CI). */
const SCALE = Number(process.env.ICAO_FUZZ_SCALE ?? 1);

type Mutation = { kind: 'flip'; pos: number; bit: number } | { kind: 'truncate'; len: number } | { kind: 'insert'; pos: number; byte: number };

function apply(b: Uint8Array, m: Mutation): Uint8Array {
  if (m.kind === 'flip') {
    const out = b.slice();
    out[m.pos % b.length] ^= 1 << m.bit;
    return out;
  }
  if (m.kind === 'truncate') return b.slice(0, m.len % b.length);
  const p = m.pos % (b.length + 1);
  const out = new Uint8Array(b.length + 1);
  out.set(b.subarray(0, p));
  out[p] = m.byte;
  out.set(b.subarray(p), p + 1);
  return out;
}

const mutation = (size: number): fc.Arbitrary<Mutation> =>
  fc.oneof(
    fc.record({ kind: fc.constant('flip' as const), pos: fc.nat(size - 1), bit: fc.nat(7) }),
    fc.record({ kind: fc.constant('truncate' as const), len: fc.nat(size - 1) }),
    fc.record({ kind: fc.constant('insert' as const), pos: fc.nat(size), byte: fc.nat(255) }),
  );

/** Runs `fn`; any exception other than Icao9303Error fails the property. Returns undefined on a typed error. */
function typed<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch (e) {
    if (e instanceof Icao9303Error) return undefined;
    throw e;
  }
}

const AT = new Date('2025-06-01');
const store = (path: string) => {
  const s = new TrustStore();
  s.addCsca(fixture(path));
  return s;
};

const cases = [
  {
    name: 'AT (ECDSA brainpoolP256r1)',
    sod: fixture('real-documents/sod/EF_SOD_AT.bin'),
    dgs: new Map([[14, fixture('real-documents/dg/EF_DG14_AT.bin')]]),
    trust: store('real-documents/csca/CSCA_AT.cer'),
    at: AT,
  },
  {
    name: 'MY (RSASSA-PSS)',
    sod: fixture('real-documents/sod/EF_SOD_MY.bin'),
    dgs: new Map([[14, fixture('real-documents/dg/EF_DG14_MY.bin')]]),
    trust: store('real-documents/csca/CSCA_MY.cer'),
    at: AT,
  },
  {
    name: 'ETSI (RSASSA-PSS, DG1/14/15)',
    sod: fixture('etsi-tr103200/EF_SOD.bin'),
    dgs: new Map([
      [1, fixture('etsi-tr103200/EF_DG1.bin')],
      [14, fixture('etsi-tr103200/EF_DG14.bin')],
      [15, fixture('etsi-tr103200/EF_DG15.bin')],
    ]),
    trust: store('etsi-tr103200/DSC_ETSI_DS_0130846f2b3e.cer'),
    at: new Date('2012-01-01'),
  },
];

/** Byte ranges covered by the signature: signature value, signed attributes, eContent (hash values). */
function protectedRanges(sod: Uint8Array): Array<[number, number]> {
  const parsed = parseSod(sod);
  const buf = Buffer.from(sod);
  const find = (part: Uint8Array) => {
    const at = buf.indexOf(Buffer.from(part));
    if (at < 0) throw new Error('region not found');
    return [at, at + part.length] as [number, number];
  };
  const attrs = parsed.signerInfo.signedAttributes!.der.slice();
  attrs[0] = 0xa0; // stored with its [0] IMPLICIT tag
  return [find(parsed.signerInfo.signature), find(attrs), find(parsed.eContent)];
}

describe.each(cases)('$name', (c) => {
  it('is PASS unmutated', () => {
    expect(verifyDocument({ sod: c.sod, dataGroups: c.dgs, trustStore: c.trust, at: c.at }).status).toBe(STATUS.PASS);
  });

  it('any mutation of the SOD: only typed errors', () => {
    fc.assert(
      fc.property(mutation(c.sod.length), (m) => {
        typed(() => verifyDocument({ sod: apply(c.sod, m), dataGroups: c.dgs, trustStore: c.trust, at: c.at }));
        typed(() => parseLdsFile(apply(c.sod, m)));
      }),
      { numRuns: 80 * SCALE },
    );
  });

  it('a bit flip in the signature, signed attributes or hashes is never PASS', () => {
    const ranges = protectedRanges(c.sod);
    const positions = fc.oneof(...ranges.map(([a, b]) => fc.integer({ min: a, max: b - 1 })));
    fc.assert(
      fc.property(positions, fc.nat(7), (pos, bit) => {
        const r = typed(() => verifyDocument({ sod: apply(c.sod, { kind: 'flip', pos, bit }), dataGroups: c.dgs, trustStore: c.trust, at: c.at }));
        return r === undefined || r.status !== STATUS.PASS;
      }),
      { numRuns: 80 * SCALE },
    );
  });

  it('any mutation of a presented data group is never PASS and parsing it throws only typed errors', () => {
    const numbers = [...c.dgs.keys()];
    fc.assert(
      fc.property(fc.constantFrom(...numbers), fc.nat(), fc.nat(7), fc.nat(255), fc.constantFrom('flip', 'truncate', 'insert'), (dg, pos, bit, byte, kind) => {
        const original = c.dgs.get(dg)!;
        const m: Mutation = kind === 'flip' ? { kind, pos, bit } : kind === 'truncate' ? { kind, len: pos } : { kind, pos, byte };
        const mutated = apply(original, m);
        typed(() => parseLdsFile(mutated));
        const dgs = new Map(c.dgs).set(dg, mutated);
        const r = typed(() => verifyDocument({ sod: c.sod, dataGroups: dgs, trustStore: c.trust, at: c.at }));
        return r === undefined || r.status === STATUS.BAD_DOCUMENT_HASHES;
      }),
      { numRuns: 60 * SCALE },
    );
  });
});

describe('other parsers under mutation', () => {
  const files = [
    'dg2/EF_DG2_ISO19794-5_jpeg_gmrtd.bin',
    'dg2/EF_DG2_ISO39794-5_MandFields.dat',
    'dg11-dg12-com/EF_DG11_icao_p10_A5_fixed.bin',
    'dg11-dg12-com/EF_DG12_perso_datetime.bin',
    'bsi-tr03105-5/EF_COM.bin',
    'real-documents/cardsecurity/EF_CardSecurity_DE.bin',
    'active-auth/ecdsa-dg15-parse-only/EF_DG15_ecdsa_brainpoolP256r1.bin',
    'mrz/EF_DG1_TD1_NLD_icao_p10_A2-1.bin',
  ];
  it.each(files)('%s: only typed errors', (f) => {
    const b = fixture(f);
    fc.assert(
      fc.property(mutation(b.length), (m) => {
        typed(() => parseLdsFile(apply(b, m)));
      }),
      { numRuns: 60 * SCALE },
    );
  });
  it('master list loading under mutation: only typed errors', () => {
    const ml = fixture('masterlists/NL_MASTERLIST_20211207.mls');
    const anchor = fixture('masterlists/CSCA_NL_serial6_2021.cer');
    fc.assert(
      fc.property(mutation(ml.length), (m) => {
        typed(() => new TrustStore().addMasterList(apply(ml, m), [anchor], new Date('2021-12-17')));
      }),
      { numRuns: 15 * SCALE },
    );
  });
});
