/** Scope values of spec 2.3; `ageverifyNN` stands for ageverify followed by one or two digits. */
export const STANDARD_SCOPES = ['openid', 'profile', 'email', 'phone', 'address', 'cert', 'ssn', 'organisation', 'offline_access'] as const;
export const AGE_VERIFY_SCOPE = /^ageverify\d{1,2}$/;

export function isKnownScope(scope: string): boolean {
  return (STANDARD_SCOPES as readonly string[]).includes(scope) || AGE_VERIFY_SCOPE.test(scope);
}

export function unknownScopes(scopeValue: string): string[] {
  return scopeValue.split(' ').filter((s) => s && !isKnownScope(s));
}

/** A space-separated list of scope values (their names are checked against the list above apart). */
export const SCOPE_VALUE = /^[a-z_0-9]+( [a-z_0-9]+)*$/;
