import { type ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import type { Request, Response } from 'express';
import { sendError } from '../../common/errors/app-exception.filter.js';
import { SamlSoapError } from '../saml.errors.js';
import { soapFault } from './artifact-resolution.service.js';

/**
 * The artifact back-channel speaks SOAP: a message it cannot read is answered with a SOAP Client fault that
 * carries the module's error code. Status 400, not the 500 of SOAP 1.1 §6.2: a client's bad input is never
 * a server error here (monitoring, and the fuzz test hold every route to that); SOAP clients read the Fault
 * either way. Transport errors (401, 413, 415) stay the service's JSON error object from the global mapping.
 */
@Catch()
export class SoapFaultFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const res = http.getResponse<Response>();
    if (!(exception instanceof SamlSoapError)) return sendError(http.getRequest<Request>(), res, exception);
    res.status(exception.status).type('text/xml').set('Cache-Control', 'no-store').send(soapFault(exception.code, exception.description));
  }
}
