import { ArgumentsHost, Catch, ExceptionFilter, HttpException } from '@nestjs/common';
import type { Request, Response } from 'express';
import { bodyLeftUnread, closeWithoutReading } from '../http/unread-body.js';
import { logger } from '../logging/logger.js';
import { requestIdOf } from '../logging/request-context.js';
import { AppError, BadRequestError } from './app-error.js';
import type { ErrorBody, ReplacementErrorBody } from './error-body.js';
import { asAppError } from './temporarily-unavailable.js';
import { errorShapeFor } from './route-error-shapes.js';

const HTTP_CODES: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'too_many_requests',
};

/** Maps every error to the spec's error object; a client never sees a stack trace or an internal message. */
@Catch()
export class AppExceptionFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    sendError(http.getRequest<Request>(), http.getResponse<Response>(), exception);
  }
}

/**
 * Writes the error object for `exception`; the filter's one mapping, also used by the Express middleware
 * that runs in front of Nest (edge checks, before the protocol engine), so every error looks the same.
 */
export function sendError(req: Request, res: Response, caught: unknown): void {
  const exception = asAppError(caught);
  const { status, body } = shapedFor(req, toErrorBody(exception));
  body.request_id = requestIdOf(req);
  // A store outage (asAppError) is logged once by its client, not once per request.
  if (status >= 500 && exception === caught) logger.error({ err: exception, request_id: body.request_id }, 'unhandled error');
  else if (exception instanceof AppError && exception.detail)
    logger.info({ code: exception.code, detail: exception.detail, request_id: body.request_id }, 'request refused');
  if (res.headersSent) return;
  // Refused before its body has all arrived (by its headers, or over a limit): the rest is not read.
  if (bodyLeftUnread(req)) closeWithoutReading(req, res);
  if (exception instanceof AppError && exception.headers) for (const [k, v] of Object.entries(exception.headers)) res.setHeader(k, v);
  res.status(status).json(body);
}

/** An operation with its own error object (route-error-shapes) gets the generic errors in that shape too. */
function shapedFor(req: Request, answer: { status: number; body: ErrorBody | ReplacementErrorBody }): { status: number; body: ErrorBody | ReplacementErrorBody } {
  const shape = 'error' in answer.body && typeof answer.body.error === 'string' ? errorShapeFor(req) : undefined;
  return shape ? { status: answer.status, body: shape(answer.status, answer.body as ErrorBody) } : answer;
}

export function toErrorBody(caught: unknown): { status: number; body: ErrorBody | ReplacementErrorBody } {
  const exception = asAppError(caught);
  if (exception instanceof AppError && exception.replacementBody)
    return { status: exception.status, body: { ...exception.replacementBody } };
  if (exception instanceof AppError) {
    const body: ErrorBody = { ...exception.publicFields, error: exception.code, error_description: exception.description };
    if (exception instanceof BadRequestError && exception.fields) body.fields = exception.fields;
    return { status: exception.status, body };
  }
  const cause = (exception as { cause?: { type?: string } })?.cause;
  if (cause?.type === 'entity.parse.failed' || (exception as { type?: string })?.type === 'entity.parse.failed')
    return { status: 400, body: { error: 'invalid_request', error_description: 'request body is not valid JSON' } };
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const response = exception.getResponse();
    const message =
      typeof response === 'object' && response && 'message' in response ? (response as { message: unknown }).message : exception.message;
    const description = Array.isArray(message) ? message.join('; ') : String(message);
    return { status, body: { error: HTTP_CODES[status] ?? (status >= 500 ? 'server_error' : 'invalid_request'), error_description: description } };
  }
  return { status: 500, body: { error: 'server_error', error_description: 'internal server error' } };
}
