import { HttpException } from '@nestjs/common';
import { AppError, BadRequestError } from './app-error.js';
import { asAppError } from './temporarily-unavailable.js';

/** The error object of spec 2.7, extended with field messages and the request id for support staff. */
export interface ErrorBody {
  error: string;
  error_description: string;
  error_uri?: string;
  fields?: Record<string, string[]>;
  request_id?: string;
  /** capture_retry only: the reason code and the words for the user in the phone's language. */
  retry_reason?: string;
  retry_message?: string;
}

/** An error object of another shape a spec operation defines (AppError.replacementBody), with the request id. */
export type ReplacementErrorBody = Record<string, string | undefined> & { request_id?: string };

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

/** The generic 500: what a client learns of anything that is not a refusal (no stack, no message, no detail). */
const INTERNAL = { error: 'server_error', error_description: 'internal server error' };

/**
 * The status and public error object of `caught`: an AppError's own code and description (or its replacement body),
 * Nest's HTTP exceptions and body parser errors mapped to codes, anything else the generic 500.
 */
export function toErrorBody(caught: unknown): { status: number; body: ErrorBody | ReplacementErrorBody } {
  const exception = asAppError(caught);
  if (exception instanceof AppError && exception.replacementBody) return { status: exception.status, body: { ...exception.replacementBody } };
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
    const message = typeof response === 'object' && response && 'message' in response ? (response as { message: unknown }).message : exception.message;
    const description = Array.isArray(message) ? message.join('; ') : String(message);
    return { status, body: { error: HTTP_CODES[status] ?? (status >= 500 ? 'server_error' : 'invalid_request'), error_description: description } };
  }
  return { status: 500, body: { ...INTERNAL } };
}
