/** What the schedule reads of a stored key: the OpenID signing keys' rows and the credential issuer's signer rows alike. */
export interface ScheduledKey {
  kid: string;
  alg: string;
  retireAt: Date | null;
  signsFrom: Date | null;
  createdAt: Date;
}

export interface KeySchedule<R extends ScheduledKey> {
  /** Every key in the JWKS now, the signing key of each algorithm first (the engine signs with the first fit). */
  published: R[];
  /** The kid that signs now, per algorithm. */
  signing: Record<string, string>;
  /** The next moment the schedule changes by itself (a key starts signing or leaves the JWKS). */
  nextChangeAt?: number;
}

const startsAt = (r: ScheduledKey) => (r.signsFrom ?? r.createdAt).getTime();

/**
 * Which keys are published and which sign, at `now`, from the rows alone: the same answer on every
 * instance. A key is published until its retireAt; per algorithm the key that started signing last signs.
 * So after a rotation the previous key keeps signing until the new key's signsFrom, and the new key is
 * published (and its start known) from the moment it is stored.
 */
export function keySchedule<R extends ScheduledKey>(rows: R[], now: number): KeySchedule<R> {
  const published = rows.filter((r) => !r.retireAt || r.retireAt.getTime() > now);
  const signing: Record<string, string> = {};
  const signers = new Set<R>();
  for (const alg of new Set(published.map((r) => r.alg))) {
    const started = published.filter((r) => r.alg === alg && startsAt(r) <= now).sort((x, y) => startsAt(y) - startsAt(x));
    if (started[0]) {
      signing[alg] = started[0].kid;
      signers.add(started[0]);
    }
  }
  const future = [...published.map((r) => startsAt(r)), ...published.map((r) => r.retireAt?.getTime() ?? Infinity)].filter((t) => t > now && t !== Infinity);
  return {
    published: [...published.filter((r) => signers.has(r)), ...published.filter((r) => !signers.has(r))],
    signing,
    nextChangeAt: future.length ? Math.min(...future) : undefined,
  };
}
