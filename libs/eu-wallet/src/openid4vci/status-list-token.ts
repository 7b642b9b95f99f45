/**
 * The Status List Token in JWT form (Token Status List draft, "Status List Token in JWT Format"): header typ
 * statuslist+jwt, alg ES256, x5c the signer's chain; payload sub (the list's uri), iat, exp, ttl, and status_list
 * {bits, lst} with the list compressed by @sd-jwt/jwt-status-list (DEFLATE/ZLIB, "Status List").
 */
import { createHeaderAndPayload, StatusList, type BitsPerStatus } from '@sd-jwt/jwt-status-list';
import { es256, keyHeader, type CredentialSigner } from './credential-signer.js';

export interface StatusListTokenInput {
  signer: CredentialSigner;
  /** Where the token is served (`GET /vci/status-lists/:listId`): its `sub`, and the credentials' status uri. */
  uri: string;
  /** One byte per index: 0 VALID, 1 INVALID (2 SUSPENDED with bits >= 2). */
  statuses: Uint8Array;
  bits: BitsPerStatus;
  /** How long a relying party may cache the token ("ttl"). */
  ttlSeconds: number;
  /** exp = now + this. */
  expiresInSeconds: number;
  now: Date;
}

const b64uJson = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

export function statusListToken(input: StatusListTokenInput): string {
  const max = 2 ** input.bits - 1;
  if (input.statuses.some((status) => status > max)) throw new Error(`a status does not fit in ${input.bits} bit(s)`);
  const iat = Math.floor(input.now.getTime() / 1000);
  const { header, payload } = createHeaderAndPayload(
    new StatusList(Array.from(input.statuses), input.bits),
    { sub: input.uri, iat, exp: iat + input.expiresInSeconds, ttl: input.ttlSeconds },
    { alg: 'ES256', typ: 'statuslist+jwt', ...keyHeader(input.signer) },
  );
  const signingInput = `${b64uJson(header)}.${b64uJson(payload)}`;
  return `${signingInput}.${es256(input.signer)(signingInput)}`;
}
