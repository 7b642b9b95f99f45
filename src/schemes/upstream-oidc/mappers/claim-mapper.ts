/**
 * Claim mappers (Keycloak's identity provider mappers): each a small class turning the upstream's claims
 * into ours. They run in the order configured; each reads the upstream claims overlaid with what earlier
 * mappers wrote, so mappers chain (a regex, then a date format). Nothing is copied unless a mapper says so.
 */
export interface MappedClaims {
  claims: Record<string, unknown>;
  /** ISO date of birth (for ageverifyNN), set by a date mapper writing `birthdate`. */
  birthDate?: string;
}

export interface ClaimMapper {
  apply(upstream: Readonly<Record<string, unknown>>, out: MappedClaims): void;
}

/** A claim as mappers see it: what earlier mappers wrote, else the upstream's. */
export function read(upstream: Readonly<Record<string, unknown>>, out: MappedClaims, name: string): unknown {
  return name in out.claims ? out.claims[name] : upstream[name];
}

/** A string claim, trimmed; undefined for anything else or empty. Long values are not ours to map. */
export function readString(upstream: Readonly<Record<string, unknown>>, out: MappedClaims, name: string): string | undefined {
  const value = read(upstream, out, name);
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed && trimmed.length <= MAX_VALUE_LENGTH ? trimmed : undefined;
}

export const MAX_VALUE_LENGTH = 1000;
