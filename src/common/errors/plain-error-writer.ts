import type { ServerResponse } from 'node:http';
import { logger } from '../logging/logger.js';
import { AppError } from './app-error.js';
import { toErrorBody } from './error-body.js';
import { asAppError } from './temporarily-unavailable.js';

/**
 * The error renderer's answer on a listener without Express (the metrics port: probes and a scraper, no pages, no
 * request ids): the JSON error object, never kept by a cache, with the headers the error needs.
 */
export function renderPlainError(res: ServerResponse, caught: unknown): void {
  const error = asAppError(caught);
  const { status, body } = toErrorBody(error);
  if (status >= 500 && error === caught) logger.error({ err: error }, 'unhandled error');
  if (res.headersSent) return void res.end();
  const headers = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...(error instanceof AppError ? error.headers : {}) };
  res.writeHead(status, headers).end(JSON.stringify(body));
}
