import type { INestApplication } from '@nestjs/common';
import { json, urlencoded } from 'express';
import type { SchemeBodyLimit, SchemeManifest } from '../broker/spi/scheme-manifest.js';
import { boundedJsonBody } from '../common/http/bounded-json-body.js';
import { verifyJsonBounds } from '../common/http/json-bounds.js';

const KiB = 1024;
/** The app API: anyone on the internet may send to it, so its bodies are read by boundedJsonBody. */
const APP_API = '/app/v1';

/**
 * The core's JSON body limits by path, tight to what each call carries; over its limit a body answers 413 unread.
 * The app API's calls (a session start, the CIBA calls, the challenges) carry a few hundred bytes; the admin API and
 * the auth-files requests (spec 4.8) stay within 256 KiB. A scheme's larger bodies (the document verifier's chip
 * files and face frames) are its manifest's, mounted before these. Every body is also held to JSON_BOUNDS (entries,
 * depth) before parsing.
 */
export const JSON_BODY_LIMITS: readonly (readonly [path: string, bytes: number])[] = [
  [APP_API, 8 * KiB],
  // A credential request: up to VCI_BATCH_SIZE key proofs of a few hundred bytes each.
  ['/vci', 64 * KiB],
  ['/', 256 * KiB],
];

function parserOf(limit: SchemeBodyLimit) {
  if (limit.kind === 'urlencoded') return urlencoded({ limit: limit.bytes, extended: false, parameterLimit: limit.parameterLimit });
  return limit.kind === 'bounded-json' ? boundedJsonBody(limit.bytes) : json({ limit: limit.bytes, verify: verifyJsonBounds });
}

/**
 * The body parsers, most specific path first (a body already read is not read again): the running schemes' (their
 * manifests), then the core's JSON ones. The app API's refuse a body by its declared length and stop reading at the
 * limit, closing the connection (boundedJsonBody); body-parser, which reads a refused body to its end, still serves
 * the other paths, whose JSON limits are 256 KiB at most.
 */
export function useJsonBodyParsers(app: INestApplication, schemes: readonly SchemeManifest[]): void {
  for (const limit of schemes.flatMap((scheme) => scheme.http?.bodyLimits ?? [])) app.use(limit.path, parserOf(limit));
  for (const [path, limit] of JSON_BODY_LIMITS) app.use(path, path.startsWith(APP_API) ? boundedJsonBody(limit) : json({ limit, verify: verifyJsonBounds }));
}

/** The running schemes' middleware before the body parsers, made from their providers (the app exists by now). */
export async function useSchemesBeforeBody(app: INestApplication, schemes: readonly SchemeManifest[]): Promise<void> {
  const get = <T>(type: new (...args: never[]) => T): T => app.get(type);
  for (const { path, middleware } of schemes.flatMap((scheme) => scheme.http?.beforeBody ?? [])) app.use(path, await middleware(get));
}
