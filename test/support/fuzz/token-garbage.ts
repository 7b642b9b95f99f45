/**
 * Token-shaped garbage for the fuzz, from a seeded source: JWTs and DPoP proofs that are malformed in one way or many
 * (segments, header members, keys that are private, of the wrong type or not on their curve, claims of the wrong
 * type), JWE-shaped answers, and mutations of real tokens (a flipped character, a cut, a segment dropped or repeated).
 */
import { mulberry32 } from '../seeded-random.js';

export interface Dice {
  random(): number;
  int(n: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}

export function dice(seed: number): Dice {
  const random = mulberry32(seed);
  const int = (n: number) => Math.floor(random() * n);
  return { random, int, pick: (items) => items[int(items.length)], chance: (p) => random() < p };
}

const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
export const b64 = (data: string | Uint8Array) => Buffer.from(data).toString('base64url');
export const b64json = (value: unknown) => b64(JSON.stringify(value));
export const randomB64 = (d: Dice, length: number) => Array.from({ length }, () => B64URL[d.int(64)]).join('');

/** A JWK as a header member: public or private, of the right or a wrong type, on the curve or not, or not a JWK at all. */
export function garbageJwk(d: Dice, value: () => unknown, real?: Record<string, unknown>): unknown {
  const coordinate = () => d.pick([randomB64(d, 43), randomB64(d, 64), randomB64(d, 88), '', 'AA', randomB64(d, 101), String(value())]);
  return d.pick([
    () => real,
    () => ({ ...real, d: randomB64(d, 43) }),
    () => ({ ...real, x: coordinate() }),
    () => ({ kty: 'EC', crv: d.pick(['P-256', 'P-384', 'P-521', 'secp256k1', 'P-257', '']), x: coordinate(), y: coordinate() }),
    () => ({ kty: 'OKP', crv: d.pick(['Ed25519', 'Ed448', 'X25519']), x: coordinate() }),
    () => ({ kty: 'RSA', n: randomB64(d, d.pick([3, 342, 10_000])), e: 'AQAB' }),
    () => ({ kty: 'oct', k: randomB64(d, 43) }),
    () => ({ kty: d.pick([null, 1, [], {}, 'EC ']) }),
    () => value(),
    () => [real],
  ])();
}

/** A compact JWS-like string, wrong somewhere: the segments, the header, the claims or the signature. */
export function garbageJwt(
  d: Dice,
  value: () => unknown,
  shape: { typ: string; jwk?: Record<string, unknown>; claims: () => Record<string, unknown> },
): string {
  const r = d.random();
  if (r < 0.1) return d.pick(['', '.', '..', '...', 'a.b', 'a.b.c.d', 'eyJ.eyJ.', `${'e'.repeat(20_000)}..`, '\u00ff\u00fe.\u00ff.x', 'null.null.null']);
  if (r < 0.2) return `${randomB64(d, d.int(60))}.${randomB64(d, d.int(200))}.${randomB64(d, d.int(120))}`;
  const header: Record<string, unknown> = { typ: shape.typ, alg: 'ES256', jwk: shape.jwk };
  for (let i = d.int(3); i >= 0; i--) {
    const member = d.pick(['typ', 'alg', 'jwk', 'kid', 'crit', 'x5c', 'b64', 'zip']);
    header[member] =
      member === 'jwk'
        ? garbageJwk(d, value, shape.jwk)
        : member === 'alg'
          ? d.pick(['none', 'HS256', 'RS256', 'ES256K', 'EdDSA', 'ES512', 'PS256', '', 1, null])
          : value();
  }
  const claims = shape.claims();
  for (let i = d.int(3); i >= 0; i--) {
    const claim = d.pick([...Object.keys(claims), 'iat', 'exp', 'jti', 'nonce', 'aud', 'htm', 'htu', 'ath']);
    claims[claim] = d.pick([() => value(), () => d.pick([null, true, -1, 0, 1e308, 2 ** 53 + 1, '1700000000', [], {}]), () => undefined])();
  }
  const segment = (v: unknown) =>
    d.chance(0.1) ? d.pick([b64('{'), b64('[]'), b64('"x"'), b64(Buffer.from([0xff, 0xfe, 0x00])), '!!', b64(`{"a":${'['.repeat(3000)}`)]) : b64json(v);
  return `${segment(header)}.${segment(claims)}.${d.pick([randomB64(d, 86), '', randomB64(d, 3), randomB64(d, 171)])}`;
}

/** A five-part compact JWE, wrong somewhere; `kid` the real key's id when known. */
export function garbageJwe(d: Dice, value: () => unknown, kid?: string): string {
  const r = d.random();
  if (r < 0.1) return d.pick(['....', 'a.b.c.d.e', 'a..c.d.e', `${b64json({ alg: 'ECDH-ES' })}....`, 'eyJ..eyJ..', '.'.repeat(5_000)]);
  const epk = d.pick([
    () => ({ kty: 'EC', crv: 'P-256', x: randomB64(d, 43), y: randomB64(d, 43) }),
    () => ({ kty: 'EC', crv: 'P-256', x: randomB64(d, 43), y: randomB64(d, 43), d: randomB64(d, 43) }),
    () => ({ kty: 'EC', crv: d.pick(['P-384', 'X25519', 'P-256 ']), x: randomB64(d, 64) }),
    () => ({ kty: 'RSA', n: randomB64(d, 342), e: 'AQAB' }),
    () => value(),
  ])();
  const header: Record<string, unknown> = {
    alg: 'ECDH-ES',
    enc: d.pick(['A128GCM', 'A256GCM', 'A128CBC-HS256', 'none', '', 7]),
    kid: d.chance(0.7) ? kid : value(),
    epk,
  };
  if (d.chance(0.3)) header[d.pick(['alg', 'enc', 'kid', 'zip', 'crit', 'apu', 'apv', 'epk'])] = value();
  const segment = () => d.pick([randomB64(d, 16), randomB64(d, 22), randomB64(d, 300), '', randomB64(d, 3), '!!']);
  return [d.chance(0.1) ? b64('{"alg":') : b64json(header), d.chance(0.8) ? '' : segment(), segment(), segment(), segment()].join('.');
}

/** A real token changed a little: a character flipped, a cut, a part dropped or repeated, garbage appended. */
export function mutateToken(d: Dice, token: string, separators = '.~'): string {
  const r = d.random();
  if (r < 0.1) return token;
  if (r < 0.35) {
    const at = d.int(token.length);
    return `${token.slice(0, at)}${B64URL[d.int(64)]}${token.slice(at + 1)}`;
  }
  if (r < 0.5) return token.slice(0, d.int(token.length));
  const sep = separators[d.int(separators.length)];
  const parts = token.split(sep);
  const at = d.int(parts.length);
  if (r < 0.65) parts.splice(at, 1);
  else if (r < 0.8) parts.splice(at, 0, parts[at]);
  else if (r < 0.9) parts.splice(at, 0, d.pick([randomB64(d, 40), b64json(['salt', 'given_name', 'x']), b64json([]), b64json(['s', '_sd', ['x']]), '']));
  else parts[at] = `${parts[at]}${d.pick(['=', '+', '/', '%00', ' ', '\u00e9'])}`;
  return parts.join(sep);
}

/** Bytes changed a little (an mdoc's CBOR): some flipped, a cut, a byte inserted. */
export function mutateBytes(d: Dice, bytes: Uint8Array): Uint8Array {
  const out = Buffer.from(bytes);
  const r = d.random();
  if (r < 0.2) return out.subarray(0, d.int(out.length));
  if (r < 0.35)
    return Buffer.concat([
      out.subarray(0, 1 + d.int(out.length)),
      Buffer.from([d.pick([0x9f, 0xbf, 0xff, 0x1b, 0xfb, 0xd8, 0x7f])]),
      out.subarray(1 + d.int(out.length)),
    ]);
  for (let i = 1 + d.int(4); i > 0; i--) out[d.int(out.length)] = d.int(256);
  return out;
}
