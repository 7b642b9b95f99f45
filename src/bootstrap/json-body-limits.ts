import type { INestApplication } from '@nestjs/common';
import { json } from 'express';
import { verifyJsonBounds } from '../common/http/json-bounds.js';

/**
 * JSON body limits by path, tight to what each call carries; over its limit a body answers 413 unread. In the app
 * API the chip files (EF.SOD and the data groups, DG2 tens of KB) and the face frames (up to 17, hundreds of KB
 * each) need megabytes, the specimen's face image up to 700 KB of Base64, DG14 a few KB; its other calls (a
 * session start, the CIBA calls, the challenges) carry a few hundred bytes. The admin API and the auth-files
 * requests (spec 4.8) stay within 256 KiB. Every body is also held to JSON_BOUNDS (entries, depth) before parsing.
 */
export const JSON_BODY_LIMITS: readonly (readonly [path: string, limit: string])[] = [
  ['/app/v1/session/chip', '8mb'],
  ['/app/v1/session/face', '8mb'],
  ['/app/v1/specimen-documents', '1mb'],
  ['/app/v1/session/ca-challenge', '32kb'],
  ['/app/v1', '8kb'],
  // A credential request: up to VCI_BATCH_SIZE key proofs of a few hundred bytes each.
  ['/vci', '64kb'],
  ['/', '256kb'],
];

/** The JSON parsers, most specific path first (a body already parsed is not parsed again). */
export function useJsonBodyParsers(app: INestApplication): void {
  for (const [path, limit] of JSON_BODY_LIMITS) app.use(path, json({ limit, verify: verifyJsonBounds }));
}
