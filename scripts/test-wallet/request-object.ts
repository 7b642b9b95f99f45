/**
 * What a HAIP wallet does with a request object (OpenID4VP 1.0 §5.9.3, HAIP 1.0 §5), with jose only (no code of the
 * verifier's libraries): typ, the signature by the x5c leaf, client_id = the x509_hash of that leaf, the chain ending
 * under the root the wallet trusts, which is not itself in x5c.
 */
import { createHash, X509Certificate } from 'node:crypto';
import { compactVerify, decodeProtectedHeader, importX509 } from 'jose';

export interface RequestView {
  header: Record<string, unknown>;
  claims: Record<string, any>;
  x5c: Buffer[];
}

const pem = (der: Buffer) =>
  `-----BEGIN CERTIFICATE-----\n${der
    .toString('base64')
    .match(/.{1,64}/g)!
    .join('\n')}\n-----END CERTIFICATE-----`;

export async function readRequestObject(jwt: string, trustedRoot: Uint8Array): Promise<RequestView> {
  const header = decodeProtectedHeader(jwt) as Record<string, unknown>;
  if (header.typ !== 'oauth-authz-req+jwt' || header.alg !== 'ES256') throw new Error(`wallet: header ${JSON.stringify(header)}`);
  const x5c = (header.x5c as string[]).map((b64) => Buffer.from(b64, 'base64'));
  const { payload } = await compactVerify(jwt, await importX509(pem(x5c[0]), 'ES256'));
  const claims = JSON.parse(new TextDecoder().decode(payload));
  const hash = createHash('sha256').update(x5c[0]).digest('base64url');
  if (claims.client_id !== `x509_hash:${hash}`) throw new Error('wallet: client_id is not the x509_hash of the leaf');
  const root = new X509Certificate(trustedRoot);
  if (x5c.some((der) => der.equals(root.raw))) throw new Error('wallet: the trust anchor is in x5c');
  if (!new X509Certificate(x5c[x5c.length - 1]).verify(root.publicKey)) throw new Error('wallet: chain does not end under the trusted root');
  return { header, claims, x5c };
}
