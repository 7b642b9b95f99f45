import type { Request } from 'express';
import { AppError } from '../errors/app-error.js';

const FORM = 'application/x-www-form-urlencoded';

/**
 * Our pages (the broker's, the SAML and CIBA test pages) post only HTML forms without files, which browsers send urlencoded; any other body
 * (text/plain, multipart, none) was not sent by our pages and is refused before anything reads it.
 */
export function formBody(req: Request): Record<string, unknown> {
  if (!req.is(FORM) || typeof req.body !== 'object' || req.body === null) throw new AppError(415, 'unsupported_media_type', `the form must be sent as ${FORM}`);
  return req.body as Record<string, unknown>;
}
