import type { NextFunction, Request, Response } from 'express';
import { logger } from './logger.js';
import { requestIdOf } from './request-context.js';

/** One line per request: method, path without its query (queries carry codes and tokens), status, duration. */
export function accessLogMiddleware(req: Request, res: Response, next: NextFunction): void {
  const started = process.hrtime.bigint();
  res.on('finish', () => {
    logger.info(
      {
        request_id: requestIdOf(req),
        method: req.method,
        path: req.originalUrl.split('?')[0],
        status: res.statusCode,
        ms: Number(process.hrtime.bigint() - started) / 1e6,
      },
      'request',
    );
  });
  next();
}
