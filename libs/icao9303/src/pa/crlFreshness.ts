/**
 * Passive authentication step (c), its revocation half: can the CRLs consulted for the path still say what their
 * CSCA revoked? A CRL past its nextUpdate (RFC 5280 §5.1.2.5: the date by which the next CRL is issued) is not
 * current: RFC 5280 §6.3.3 (a)(1) then asks for a current CRL, and without one a certificate's status is
 * UNDETERMINED (§6.3.3, last step), not "not revoked". ICAO 9303-12 §7.1.4 makes every CSCA issue CRLs (at least
 * every 90 days), so a country's next CRL is due by the last one's nextUpdate.
 *
 * What an outdated CRL does is the caller's policy (`refuse` fails the chain, `warn` reports it and passes), after a
 * grace period for late publication and the time a relay (the ICAO PKD, the operator's download) takes.
 */
import type { ConsultedCrl } from './certificateChain.js';

/**
 * CRL_CURRENT: every CRL consulted is before its nextUpdate. CRL_OUTDATED_IN_GRACE: one is past it, within the grace.
 * CRL_OUTDATED: one is past nextUpdate plus the grace. CRL_NONE: no CRL covers the path (no revocation check at all).
 */
export type CrlFreshnessCode = 'CRL_CURRENT' | 'CRL_OUTDATED_IN_GRACE' | 'CRL_OUTDATED' | 'CRL_NONE';

export interface CrlFreshnessPolicy {
  /** How long past its nextUpdate a CRL still counts as current, in hours. */
  graceHours: number;
  /** refuse: an outdated CRL fails the chain (STATUS_BAD_COUNTRYSIGNERCHAIN); warn: it is reported and passes. */
  outdated: 'refuse' | 'warn';
}

export interface CrlFreshnessCheck {
  /** false only when an outdated CRL is refused */
  ok: boolean;
  code: CrlFreshnessCode;
  /** the CRL that decided the code (the most overdue one), when one was consulted */
  crl?: ConsultedCrl;
  graceHours: number;
  /** what was found and why it matters, with its clauses; absent for CRL_CURRENT and CRL_NONE */
  reason?: string;
}

const HOUR = 3600_000;

export function checkCrlFreshness(consulted: readonly ConsultedCrl[], at: Date, policy: CrlFreshnessPolicy): CrlFreshnessCheck {
  const { graceHours } = policy;
  // Per issuer the freshest CRL counts: an older one loaded beside a current one takes nothing away.
  const freshest = new Map<string, ConsultedCrl>();
  for (const crl of consulted) {
    const known = freshest.get(crl.issuer);
    if (!known || dueTime(crl) > dueTime(known)) freshest.set(crl.issuer, crl);
  }
  if (freshest.size === 0) return { ok: true, code: 'CRL_NONE', graceHours };
  const [worst] = [...freshest.values()].sort((a, b) => dueTime(a) - dueTime(b));
  const due = dueTime(worst);
  if (at.getTime() <= due) return { ok: true, code: 'CRL_CURRENT', crl: worst, graceHours };
  const overdue = `the CRL of "${worst.issuer}" was due for replacement at ${worst.nextUpdate} (its nextUpdate)`;
  if (at.getTime() <= due + graceHours * HOUR)
    return {
      ok: true,
      code: 'CRL_OUTDATED_IN_GRACE',
      crl: worst,
      graceHours,
      reason: `CRL_OUTDATED_IN_GRACE: ${overdue}, within the grace of ${graceHours} h (RFC 5280 §6.3.3 (a)(1))`,
    };
  const consequence = policy.outdated === 'refuse' ? 'refused' : 'accepted with this warning';
  return {
    ok: policy.outdated !== 'refuse',
    code: 'CRL_OUTDATED',
    crl: worst,
    graceHours,
    reason: `CRL_OUTDATED: ${overdue}, more than ${graceHours} h before ${at.toISOString()}: what its CSCA revoked since is unknown, ${consequence} (RFC 5280 §6.3.3 (a)(1); 9303-12 §7.1.4)`,
  };
}

/** A CRL without nextUpdate (not RFC 5280) has no due date to miss: it is judged current. */
function dueTime(crl: ConsultedCrl): number {
  return crl.nextUpdate ? Date.parse(crl.nextUpdate) : Infinity;
}
