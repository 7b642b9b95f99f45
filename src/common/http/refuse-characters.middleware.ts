import { parse as parseQuery } from 'node:querystring';
import type { NextFunction, Request, Response } from 'express';
import { AppError, BadRequestError } from '../errors/app-error.js';
import { sendError } from '../errors/app-exception.filter.js';
import { basicCredentialsContainNul, NUL_REFUSED, refusedTextInParameters, refusedTextInValue, urlContainsNul } from './refused-characters.js';
import { BodyTooLargeError, hasBody, readRawBody } from './replayable-body.js';

/** The engine refuses bodies over 56 KiB itself; we read no more than that before it. */
const ENGINE_BODY_LIMIT = 56 * 1024;

export interface RefuseCharactersOptions {
  /** Requests whose body the protocol engine parses itself (Nest's parsers never see them). */
  engineReadsBody(req: Request): boolean;
  /** Requests whose parameters the engine decodes further (JSON, JWTs, Base64): looked into one level deep. */
  decodesParameters(req: Request): boolean;
  /** An HTML page for browser-facing endpoints (the authorization endpoint, spec 4.2.2); else JSON. */
  htmlError?(req: Request, description: string): string | undefined;
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
  const refuse = (req: Request, res: Response, error: AppError): void => {
    const page = error.status === 400 ? options.htmlError?.(req, error.description) : undefined;
    if (page) return void res.status(400).type('html').send(page);
    sendError(req, res, error);
  };
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    if (urlContainsNul(req.originalUrl) || basicCredentialsContainNul(req.headers.authorization)) return refuse(req, res, new BadRequestError(NUL_REFUSED));
    const decodeParameters = options.decodesParameters(req);
    const inQuery = decodeParameters ? refusedTextInParameters(parseQuery(req.originalUrl.split('?')[1] ?? '')) : undefined;
    if (inQuery) return refuse(req, res, new BadRequestError(inQuery));
    if (!options.engineReadsBody(req) || !hasBody(req)) return next();
    let body: Buffer;
    try {
      body = await readRawBody(req, ENGINE_BODY_LIMIT);
    } catch (e) {
      // The rest is not read: the refusal closes the connection (sendError).
      if (e instanceof BodyTooLargeError) return refuse(req, res, new AppError(413, 'payload_too_large', 'the request body is too large'));
      return refuse(req, res, new BadRequestError('the request body could not be read'));
    }
    const inBody = refusedTextInBody(req, body, decodeParameters);
    if (inBody) return refuse(req, res, new BadRequestError(inBody));
    next();
  };
}

/** After Nest's body parsers: a NUL or a lone surrogate anywhere in the parsed JSON or form body answers 400. */
export function refuseCharactersInParsedBody(req: Request, res: Response, next: NextFunction): void {
  const refusal = refusedTextInValue(req.body);
  if (refusal) return sendError(req, res, new BadRequestError(refusal));
  next();
}
