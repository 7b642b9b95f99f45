import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import type { Request, Response } from 'express';
import { renderError } from './error-renderer.js';

/**
 * Nest's global filter: every error a controller, guard, pipe or Express middleware (`next(err)`, through Nest's
 * error layer) raises goes to the one error renderer.
 */
@Catch()
export class AppExceptionFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    renderError(http.getRequest<Request>(), http.getResponse<Response>(), exception);
  }
}
