/**
 * Which credential queries of a DCQL query (OpenID4VP 1.0 §6) the wallet answers, and with what: with credential_sets,
 * for each required set the first option whose every query the wallet can answer (§6.4.2) with what `preferred`
 * takes, else the first it can answer at all (§6.4.2 leaves the choice among options to the wallet); without them,
 * every query it can answer. `answerer` says what would answer one query (null: nothing held fits).
 */

export interface DcqlClaim {
  id?: string;
  path: (string | number | null)[];
}

export interface DcqlCredential {
  id: string;
  format: string;
  meta: { doctype_value?: string; vct_values?: string[] };
  claims?: DcqlClaim[];
  claim_sets?: string[][];
}

export interface DcqlQuery {
  credentials: DcqlCredential[];
  credential_sets?: { options: string[][]; required?: boolean }[];
}

export interface Chosen<T> {
  query: DcqlCredential;
  source: T;
}

export function chooseAnswers<T>(dcql: DcqlQuery, answerer: (query: DcqlCredential) => T | null, preferred: (source: T) => boolean = () => false): Chosen<T>[] {
  const byId = new Map(dcql.credentials.map((c) => [c.id, c]));
  const answer = (id: string): Chosen<T> | null => {
    const query = byId.get(id);
    const source = query ? answerer(query) : null;
    return query && source !== null ? { query, source } : null;
  };
  if (!dcql.credential_sets) {
    const all = dcql.credentials.map((c) => answer(c.id)).filter((c): c is Chosen<T> => c !== null);
    if (all.length === 0) throw new Error('wallet: holds nothing the request asks for');
    return all;
  }
  const chosen: Chosen<T>[] = [];
  // §6.2: required defaults to true; an optional set is left unanswered (the wallet shares no more than it must).
  for (const set of dcql.credential_sets.filter((s) => s.required !== false)) {
    const answerable = set.options.map((ids) => ids.map(answer)).filter((answers): answers is Chosen<T>[] => answers.every((a) => a !== null));
    const option = answerable.find((answers) => answers.every((a) => preferred(a.source))) ?? answerable[0];
    if (!option) throw new Error(`wallet: holds nothing for the credential set of options ${JSON.stringify(set.options)}`);
    for (const a of option) if (!chosen.some((c) => c.query.id === a.query.id)) chosen.push(a);
  }
  if (chosen.length === 0) throw new Error('wallet: holds nothing the request asks for');
  return chosen;
}

/** §6.3: the claims to disclose: those of the first claim set all of whose claims `available` says the credential has. */
export function claimsToDisclose(query: DcqlCredential, available: (paths: DcqlClaim['path'][]) => boolean): DcqlClaim['path'][] | null {
  const claims = query.claims ?? [];
  if (!query.claim_sets) return available(claims.map((c) => c.path)) ? claims.map((c) => c.path) : null;
  for (const set of query.claim_sets) {
    const paths = set.map((id) => claims.find((c) => c.id === id)?.path).filter((p) => p !== undefined);
    if (paths.length === set.length && available(paths)) return paths;
  }
  return null;
}
