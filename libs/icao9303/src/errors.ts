/**
 * The one error type the library throws on bad input. `code` is stable for programs,
 * `field` names the offending field/structure so a human can locate the problem.
 */
export type Icao9303ErrorCode =
  | 'MRZ_FORMAT'
  | 'MRZ_CHECK_DIGIT'
  | 'TLV_MALFORMED'
  | 'LDS_MALFORMED'
  | 'BIOMETRIC_MALFORMED'
  | 'SOD_MALFORMED'
  | 'CERTIFICATE_MALFORMED'
  | 'KEY_UNSUPPORTED'
  | 'ALGORITHM_UNSUPPORTED'
  | 'MASTER_LIST_INVALID'
  | 'CRL_MALFORMED'
  | 'SECURE_MESSAGING'
  | 'CHIP_ERROR'
  | 'INVALID_ARGUMENT';

export class Icao9303Error extends Error {
  override readonly name = 'Icao9303Error';
  constructor(
    readonly code: Icao9303ErrorCode,
    readonly field: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${field}: ${message}`, options);
  }
}

/** Runs `fn`, converting anything thrown by third-party code into an Icao9303Error. */
export function guard<T>(code: Icao9303ErrorCode, field: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw wrapError(code, field, e);
  }
}

export function wrapError(code: Icao9303ErrorCode, field: string, e: unknown): Icao9303Error {
  if (e instanceof Icao9303Error) {
    // low-level TLV framing errors take the code of the structure being decoded
    return e.code === 'TLV_MALFORMED' && code !== 'TLV_MALFORMED' ? new Icao9303Error(code, e.field, e.message.slice(e.field.length + 2), { cause: e }) : e;
  }
  const detail = e instanceof Error ? e.message : String(e);
  return new Icao9303Error(code, field, detail, { cause: e });
}
