/**
 * Passive authentication step (a): each presented data group hashes to the value in the
 * LDSSecurityObject (ICAO 9303-11 §5.1 step 4; 9303-10 §4.6.2.2 — the hash covers the whole DG TLV).
 */
import { createHash } from 'node:crypto';
import type { Sod } from '../sod/sod.js';
import { bytesEqual, toHex } from '../util/bytes.js';

export interface DataGroupHashResult {
  dataGroup: number;
  ok: boolean;
  expected?: string;
  actual: string;
  reason?: 'MISMATCH' | 'NOT_IN_SOD';
}

export interface DataGroupHashCheck {
  ok: boolean;
  hashAlgorithm: string;
  results: DataGroupHashResult[];
  /** data groups listed in the SOD but not presented (not an error: EAC-protected DGs are often unread) */
  notPresented: number[];
}

export function checkDataGroupHashes(sod: Sod, dataGroups: ReadonlyMap<number, Uint8Array>): DataGroupHashCheck {
  const { hashAlgorithm, dataGroupHashes } = sod.ldsSecurityObject;
  const expected = new Map(dataGroupHashes.map((d) => [d.dataGroup, d.hash]));
  const results: DataGroupHashResult[] = [...dataGroups.entries()]
    .sort(([a], [b]) => a - b)
    .map(([dg, bytes]) => {
      const actual = new Uint8Array(createHash(hashAlgorithm).update(bytes).digest());
      const want = expected.get(dg);
      if (!want) return { dataGroup: dg, ok: false, actual: toHex(actual), reason: 'NOT_IN_SOD' as const };
      const ok = bytesEqual(actual, want);
      return { dataGroup: dg, ok, expected: toHex(want), actual: toHex(actual), ...(ok ? {} : { reason: 'MISMATCH' as const }) };
    });
  return {
    ok: results.every((r) => r.ok),
    hashAlgorithm,
    results,
    notPresented: dataGroupHashes.map((d) => d.dataGroup).filter((dg) => !dataGroups.has(dg)),
  };
}
