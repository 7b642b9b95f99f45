import { parseDg14, type verifyDocument } from '@identity-broker/icao9303';

type DocumentResult = ReturnType<typeof verifyDocument>;

export interface CloneDetectionJudgement {
  /** The proof that passed (or, when none did, the one attempted). */
  method: 'active-authentication' | 'chip-authentication' | 'none';
  /** The SOD says the chip can prove it is genuine, so it must. */
  required: boolean;
  passed: boolean;
  /** STATUS_BAD_CLONEDETECTION: a required proof is missing or wrong, or a proof sent did not hold. */
  failed: boolean;
  /** Why it failed, with the ICAO clause (support only). */
  problems: string[];
}

/**
 * Whether the chip proved it is genuine, judged by what the signed SOD lists, never by what the app chose to
 * upload (leaving DG15 out must not make the proof optional):
 * - DG15 listed: the chip has an Active Authentication key (ICAO 9303-11 §6.1), so AA is required;
 * - DG14 listed with a ChipAuthenticationPublicKeyInfo: Chip Authentication (9303-11 §6.2) is required;
 *   a DG14 listed but not uploaded cannot show it has none, so it counts as requiring a proof;
 * - either proof satisfies a chip that supports both; a proof only counts when its data group is listed
 *   and hash-matches the SOD (a substituted DG15 with the attacker's key proves nothing).
 * A SOD that lists neither needs no proof; such a chip passes without clone detection (never eIDAS high).
 */
/* eslint-disable-next-line complexity -- the 9303-11 §6.1/§6.2 decision table in one place: which proof is required,
   which counts and which failed are read together from what the SOD lists, and splitting them would hide how they
   combine */
export function judgeCloneDetection(result: DocumentResult, dataGroups: ReadonlyMap<number, Uint8Array>): CloneDetectionJudgement {
  const listed = new Set(result.document.dataGroupsInSod);
  const hashMatches = (dg: number) => result.checks.dataGroupHashes.results.some((r) => r.dataGroup === dg && r.ok);
  const problems: string[] = [];
  if (listed.has(15) && !dataGroups.has(15)) problems.push('DG15 is listed in the SOD but was not presented (9303-11 §6.1)');
  if (listed.has(14) && !dataGroups.has(14)) problems.push('DG14 is listed in the SOD but was not presented (9303-11 §6.2)');
  const dg14 = listed.has(14) ? dataGroups.get(14) : undefined;
  const chipAuthKey = dg14 !== undefined && parseDg14(dg14).chipAuthenticationPublicKeys.length > 0;
  const required = listed.has(15) || chipAuthKey || (listed.has(14) && !dg14);

  const { activeAuthentication: aa, chipAuthentication: ca } = result.checks;
  const aaProof = aa?.ok === true && listed.has(15) && hashMatches(15);
  const caProof = ca?.ok === true && listed.has(14) && hashMatches(14);
  if (aa?.ok && !aaProof) problems.push('the Active Authentication key (DG15) is not the one the SOD signs (9303-11 §6.1)');
  if (ca?.ok && !caProof) problems.push('the Chip Authentication key (DG14) is not the one the SOD signs (9303-11 §6.2)');
  // A proof that was attempted and failed fails the chip even when another passed: a clone may answer one.
  const failedAttempt = aa?.ok === false || ca?.ok === false;
  const passed = (aaProof || caProof) && !failedAttempt;
  if (required && !aa && !ca) problems.push('the chip can prove it is genuine (SOD lists DG14/DG15) but no proof was sent (9303-11 §6.1, §6.2)');
  const method = caProof ? 'chip-authentication' : aaProof ? 'active-authentication' : ca ? 'chip-authentication' : aa ? 'active-authentication' : 'none';
  // Any proof that was sent must hold, required or not.
  const failed = required ? !passed : (aa !== undefined || ca !== undefined) && !passed;
  return { method, required, passed, failed, problems };
}
