import { parse as parseQuery } from 'node:querystring';
import type { NextFunction, Request, Response } from 'express';
import { AppError, BadRequestError } from '../errors/app-error.js';
import { sendError } from '../errors/app-exception.filter.js';
import { basicCredentialsContainNul, containsNul, NUL_REFUSED, parametersHideNul, urlContainsNul } from './nul-character.js';
import { BodyTooLargeError, hasBody, readRawBody } from './replayable-body.js';

/** The engine refuses bodies over 56 KiB itself; we read no more than that before it. */
const ENGINE_BODY_LIMIT = 56 * 1024;

export interface RefuseNulOptions {
  /** Requests whose body the protocol engine parses itself (Nest's parsers never see them). */
  engineReadsBody(req: Request): boolean;
  /** Requests whose parameters the engine decodes further (JSON, JWTs, Base64): looked into one level deep. */
  decodesParameters(req: Request): boolean;
  /** An HTML page for browser-facing endpoints (the authorization endpoint, spec 4.2.2); else JSON. */
  htmlError?(req: Request, description: string): string | undefined;
}

/** Whether a raw body, of the content types the service parses, carries a NUL. */
function bodyContainsNul(req: Request, body: Buffer, decodeParameters: boolean): boolean {
  if (req.is('application/x-www-form-urlencoded')) {
    const params = parseQuery(body.toString('utf8'));
    return containsNul(params) || (decodeParameters && parametersHideNul(params));
  }
  if (req.is('application/json')) {
    try {
      return containsNul(JSON.parse(body.toString('utf8')));
    } catch {
      return false; // unparseable: the engine refuses it with its own invalid_request
    }
  }
  return body.includes(0);
}

/**
 * In front of everything (the engine included): a NUL in the path, the query, Basic credentials or a
 * body the engine reads answers 400 invalid_request. Bodies Nest parses are checked after parsing
 * (refuseNulInParsedBody), so each body is parsed once by its own parser.
 */
export function refuseNulInRequest(options: RefuseNulOptions) {
  const refuse = (req: Request, res: Response, error: AppError = new BadRequestError(NUL_REFUSED)): void => {
    const page = error.status === 400 ? options.htmlError?.(req, error.description) : undefined;
    if (page) return void res.status(400).type('html').send(page);
    sendError(req, res, error);
  };
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    if (urlContainsNul(req.originalUrl) || basicCredentialsContainNul(req.headers.authorization)) return refuse(req, res);
    const decodeParameters = options.decodesParameters(req);
    if (decodeParameters && parametersHideNul(parseQuery(req.originalUrl.split('?')[1] ?? ''))) return refuse(req, res);
    if (!options.engineReadsBody(req) || !hasBody(req)) return next();
    let body: Buffer;
    try {
      body = await readRawBody(req, ENGINE_BODY_LIMIT);
    } catch (e) {
      // Discard the unread rest, as Node does for bodies nobody reads, so the connection stays usable.
      req.resume();
      if (e instanceof BodyTooLargeError) return refuse(req, res, new AppError(413, 'payload_too_large', 'the request body is too large'));
      return refuse(req, res, new BadRequestError('the request body could not be read'));
    }
    if (bodyContainsNul(req, body, decodeParameters)) return refuse(req, res);
    next();
  };
}

/** After Nest's body parsers: a NUL anywhere in the parsed JSON or form body answers 400. */
export function refuseNulInParsedBody(req: Request, res: Response, next: NextFunction): void {
  if (containsNul(req.body)) return sendError(req, res, new BadRequestError(NUL_REFUSED));
  next();
}
