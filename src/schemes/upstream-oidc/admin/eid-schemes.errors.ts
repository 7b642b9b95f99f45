import { AppError } from '../../../common/errors/app-error.js';

/** Errors of the eID scheme admin API (through the global filter, as JSON). */
export class EidSchemeError extends AppError {}

export const schemeIdTaken = (id: string) => new EidSchemeError(409, 'eid_scheme_exists', `an eID scheme with id ${id} already exists`);
export const builtInScheme = (id: string) =>
  new EidSchemeError(409, 'eid_scheme_built_in', `${id} is a built-in scheme (code, not data) and cannot be changed through the API`);
