import type { NextFunction, Request, Response } from 'express';
import { loggablePath } from './loggable-path.js';
import { logger } from './logger.js';
import { requestIdOf } from './request-context.js';

/** One line per request: method, path without its query (queries carry codes and tokens) or secret segments, status, duration. */
export function accessLogMiddleware(req: Request, res: Response, next: NextFunction): void {
  const started = process.hrtime.bigint();
  res.on('finish', () => {
    logger.info(
      {
        request_id: requestIdOf(req),
        method: req.method,
        path: loggablePath(req.originalUrl),
        status: res.statusCode,
        ms: Number(process.hrtime.bigint() - started) / 1e6,
      },
      'request',
    );
  });
  next();
}
