import { AppError } from '../../common/errors/app-error.js';

/** Errors of the broker pages; rendered as HTML pages, not JSON, because a browser is reading. */
export class InteractionError extends AppError {}

export const interactionExpired = () => new InteractionError(400, 'interaction_expired', 'this sign-in has expired or was already finished');
export const csrfRejected = () => new InteractionError(403, 'csrf_rejected', 'the form was not sent by this sign-in page');
export const schemeNotAllowed = (id: string) =>
  new InteractionError(404, 'unknown_eid_scheme', `the identification method ${id} is not available for this service`);
/** A redirect scheme's callback whose state is missing, unknown, used, expired or not this sign-in's. */
export const stateRefused = (why: string) => new InteractionError(400, 'invalid_state', why);
