import type { INestApplication } from '@nestjs/common';
import { json } from 'express';
import { boundedJsonBody } from '../common/http/bounded-json-body.js';
import { verifyJsonBounds } from '../common/http/json-bounds.js';

const KiB = 1024;
const MiB = 1024 * KiB;
/** The app API: anyone on the internet may send to it, so its bodies are read by boundedJsonBody. */
const APP_API = '/app/v1';

/**
 * JSON body limits by path, tight to what each call carries; over its limit a body answers 413 unread. In the app
 * API the chip files (EF.SOD and the data groups, DG2 tens of KB) and the face frames (up to 17, hundreds of KB
 * each) need megabytes, the specimen's face image up to 700 KB of Base64, DG14 a few KB; its other calls (a
 * session start, the CIBA calls, the challenges) carry a few hundred bytes. The admin API and the auth-files
 * requests (spec 4.8) stay within 256 KiB. Every body is also held to JSON_BOUNDS (entries, depth) before parsing.
 */
export const JSON_BODY_LIMITS: readonly (readonly [path: string, bytes: number])[] = [
  ['/app/v1/session/chip', 8 * MiB],
  ['/app/v1/session/face', 8 * MiB],
  ['/app/v1/specimen-documents', MiB],
  ['/app/v1/session/ca-challenge', 32 * KiB],
  [APP_API, 8 * KiB],
  // A credential request: up to VCI_BATCH_SIZE key proofs of a few hundred bytes each.
  ['/vci', 64 * KiB],
  ['/', 256 * KiB],
];

/**
 * The JSON parsers, most specific path first (a body already read is not read again). The app API's refuse a body
 * by its declared length and stop reading at the limit, closing the connection (boundedJsonBody); body-parser, which
 * reads a refused body to its end, still serves the other paths, whose JSON limits are 256 KiB at most.
 */
export function useJsonBodyParsers(app: INestApplication): void {
  for (const [path, limit] of JSON_BODY_LIMITS) app.use(path, path.startsWith(APP_API) ? boundedJsonBody(limit) : json({ limit, verify: verifyJsonBounds }));
}
