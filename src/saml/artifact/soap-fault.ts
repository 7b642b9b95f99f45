import type { AppError } from '../../common/errors/app-error.js';
import { SamlSoapError } from '../saml.errors.js';
import { soapFault } from './artifact-resolution.service.js';

/**
 * The artifact back-channel speaks SOAP: a message it cannot read is answered (by the error renderer) with a SOAP
 * Client fault that carries the module's error code. Status 400, not the 500 of SOAP 1.1 §6.2: a client's bad input
 * is never a server error here (monitoring, and the fuzz test hold every route to that); SOAP clients read the Fault
 * either way. Transport errors (401, 413, 415) stay the service's JSON error object.
 */
export const samlSoapFault = (error: AppError): string | undefined => (error instanceof SamlSoapError ? soapFault(error.code, error.description) : undefined);
