import { keySchedule } from './signing-key-schedule.js';

const at = (s: number) => new Date(1_700_000_000_000 + s * 1000);
const row = (kid: string, alg: 'RS256' | 'ES256', created: number, signsFrom: number | null, retireAt: number | null) => ({
  kid,
  alg,
  status: retireAt === null ? ('active' as const) : ('retiring' as const),
  createdAt: at(created),
  signsFrom: signsFrom === null ? null : at(signsFrom),
  retireAt: retireAt === null ? null : at(retireAt),
});

describe('signing key schedule (publish first, sign later)', () => {
  // Rotated at t=100: new keys sign from t=220, old ones retire at t=220 + 86400.
  const rows = [
    row('rs-new', 'RS256', 100, 220, null),
    row('es-new', 'ES256', 100, 220, null),
    row('rs-old', 'RS256', 0, null, 86620),
    row('es-old', 'ES256', 0, null, 86620),
  ];

  it('publishes the new keys at once while the old ones still sign', () => {
    const s = keySchedule(rows, at(101).getTime());
    expect(s.signing).toEqual({ RS256: 'rs-old', ES256: 'es-old' });
    expect(
      s.published
        .map((r) => r.kid)
        .slice(0, 2)
        .sort(),
    ).toEqual(['es-old', 'rs-old']);
    expect(s.published).toHaveLength(4);
    expect(s.nextChangeAt).toBe(at(220).getTime());
  });

  it('switches to the new keys at signs_from, keeping the old ones published for the overlap', () => {
    const s = keySchedule(rows, at(220).getTime());
    expect(s.signing).toEqual({ RS256: 'rs-new', ES256: 'es-new' });
    expect(s.published).toHaveLength(4);
    expect(s.nextChangeAt).toBe(at(86620).getTime());
    expect(
      keySchedule(rows, at(86620).getTime())
        .published.map((r) => r.kid)
        .sort(),
    ).toEqual(['es-new', 'rs-new']);
  });
});
