import { parse as parseQuery } from 'node:querystring';
import type { NextFunction, Request, Response } from 'express';
import { BadRequestError } from '../errors/app-error.js';
import { basicCredentialsContainNul, NUL_REFUSED, refusedTextInParameters, refusedTextInValue, urlContainsNul } from './refused-characters.js';
import { BodyTooLargeError, hasBody, readRawBody } from './replayable-body.js';

/** The engine refuses bodies over 56 KiB itself; we read no more than that before it. */
const ENGINE_BODY_LIMIT = 56 * 1024;

export interface RefuseCharactersOptions {
  /** Requests whose body the protocol engine parses itself (Nest's parsers never see them). */
  engineReadsBody(req: Request): boolean;
  /** Requests whose parameters the engine decodes further (JSON, JWTs, Base64): looked into one level deep. */
  decodesParameters(req: Request): boolean;
}

/** Why a raw body, of the content types the service parses, is refused (see refused-characters), or undefined. */
function refusedTextInBody(req: Request, body: Buffer, decodeParameters: boolean): string | undefined {
  if (req.is('application/x-www-form-urlencoded')) {
    const params = parseQuery(body.toString('utf8'));
    return refusedTextInValue(params) ?? (decodeParameters ? refusedTextInParameters(params) : undefined);
  }
  if (req.is('application/json')) {
    try {
      return refusedTextInValue(JSON.parse(body.toString('utf8')));
    } catch {
      return undefined; // unparseable: the engine refuses it with its own invalid_request
    }
  }
  return body.includes(0) ? NUL_REFUSED : undefined;
}

/**
 * In front of everything (the engine included): a NUL in the path, the query, Basic credentials or a body
 * the engine reads, or a lone surrogate where the engine decodes JSON (its bodies, JSON or JWTs in its
 * parameters), answers 400 invalid_request. Bodies Nest parses are checked after parsing
 * (refuseCharactersInParsedBody), so each body is parsed once by its own parser. Percent-encoding cannot
 * carry a lone surrogate (its UTF-8 is invalid and decodes to U+FFFD), so raw paths and queries need no
 * surrogate check.
 */
export function refuseCharactersInRequest(options: RefuseCharactersOptions) {
  // A refusal is the error renderer's to answer (next(err)): the error page where a browser opened the route.
  return async (req: Request, _res: Response, next: NextFunction): Promise<void> => {
    if (urlContainsNul(req.originalUrl) || basicCredentialsContainNul(req.headers.authorization)) return next(new BadRequestError(NUL_REFUSED));
    const decodeParameters = options.decodesParameters(req);
    const inQuery = decodeParameters ? refusedTextInParameters(parseQuery(req.originalUrl.split('?')[1] ?? '')) : undefined;
    if (inQuery) return next(new BadRequestError(inQuery));
    if (!options.engineReadsBody(req) || !hasBody(req)) return next();
    let body: Buffer;
    try {
      body = await readRawBody(req, ENGINE_BODY_LIMIT);
    } catch (e) {
      // The rest is not read: the refusal closes the connection (the error renderer).
      if (e instanceof BodyTooLargeError) return next(e);
      return next(new BadRequestError('the request body could not be read'));
    }
    const inBody = refusedTextInBody(req, body, decodeParameters);
    if (inBody) return next(new BadRequestError(inBody));
    next();
  };
}

/** After Nest's body parsers: a NUL or a lone surrogate anywhere in the parsed JSON or form body answers 400. */
export function refuseCharactersInParsedBody(req: Request, _res: Response, next: NextFunction): void {
  const refusal = refusedTextInValue(req.body);
  if (refusal) return next(new BadRequestError(refusal));
  next();
}
