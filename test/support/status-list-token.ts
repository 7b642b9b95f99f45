import { getListFromStatusListJWT } from '@sd-jwt/jwt-status-list';
import { verify, X509Certificate } from 'node:crypto';

export interface ReadStatusList {
  header: { alg: string; typ: string; x5c: string[] };
  payload: { sub: string; iat: number; exp: number; ttl: number; status_list: { bits: number; lst: string } };
  status(idx: number): number;
}

/** Decodes a statuslist+jwt and checks its ES256 signature with the x5c leaf, and the leaf against `root` (DER). */
export function readStatusListToken(token: string, root?: Uint8Array): ReadStatusList {
  const [h, p, s] = token.split('.');
  const header = JSON.parse(Buffer.from(h, 'base64url').toString()) as ReadStatusList['header'];
  const payload = JSON.parse(Buffer.from(p, 'base64url').toString()) as ReadStatusList['payload'];
  const leaf = new X509Certificate(Buffer.from(header.x5c[0], 'base64'));
  if (!verify('sha256', Buffer.from(`${h}.${p}`), { key: leaf.publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url')))
    throw new Error('status list token: bad signature');
  if (root && !leaf.verify(new X509Certificate(root).publicKey)) throw new Error('status list token: the leaf is not issued by the root');
  const list = getListFromStatusListJWT(token);
  return { header, payload, status: (idx) => list.getStatus(idx) };
}
