/**
 * Test Status List Tokens (Token Status List draft, "Status List Token in JWT Format"), for tests and customer-test only:
 * the list compressed with @sd-jwt/jwt-status-list, the JWT signed ES256 by a test PKI signer with its chain in x5c.
 */
import { createHeaderAndPayload, StatusList, type BitsPerStatus } from '@sd-jwt/jwt-status-list';
import { es256Signer } from './issue-sd-jwt-vc.js';
import type { TestSigner } from './test-pki.js';

export interface CreateStatusListOptions {
  signer: TestSigner;
  /** The uri the list is served at: the token's `sub`. */
  uri: string;
  /** The token's `iss` (Token Status List -02 §5.1: the Referenced Token's `iss`); default none, as -14 has it. */
  iss?: string;
  bits: BitsPerStatus;
  /** One status per index (0 VALID, 1 INVALID, 2 SUSPENDED, ...). */
  values: number[];
  issuedAt?: Date;
  /** Default: a day after issuedAt; null for a token without exp. */
  expiresAt?: Date | null;
  ttl?: number;
  /** Extra or replaced JOSE header parameters (tests of typ). */
  header?: Record<string, unknown>;
}

const b64u = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

export function createStatusList(options: CreateStatusListOptions): string {
  const issuedAt = options.issuedAt ?? new Date();
  const expiresAt = options.expiresAt === undefined ? new Date(issuedAt.getTime() + 86_400_000) : options.expiresAt;
  const list = new StatusList([...options.values], options.bits);
  const { header, payload } = createHeaderAndPayload(
    list,
    {
      ...(options.iss !== undefined ? { iss: options.iss } : {}),
      sub: options.uri,
      iat: seconds(issuedAt),
      ...(expiresAt ? { exp: seconds(expiresAt) } : {}),
      ...(options.ttl !== undefined ? { ttl: options.ttl } : {}),
    },
    { alg: 'ES256', typ: 'statuslist+jwt', x5c: options.signer.chain.map((der) => Buffer.from(der).toString('base64')) },
  );
  const signingInput = `${b64u({ ...header, ...options.header })}.${b64u(payload)}`;
  return `${signingInput}.${es256Signer(options.signer.privateKey)(signingInput)}`;
}
