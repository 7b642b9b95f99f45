/**
 * Why a face operation failed; callers map these to user-facing outcomes (retake photo, reject upload).
 * TOO_LARGE: the image declares more pixels than are decoded (see decode-limits.ts); refused unread.
 */
export type FaceErrorCode = 'NO_FACE' | 'MULTIPLE_FACES' | 'BAD_IMAGE' | 'TOO_LARGE';

export class FaceError extends Error {
  constructor(
    readonly code: FaceErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'FaceError';
  }
}

export function isFaceError(error: unknown, code?: FaceErrorCode): error is FaceError {
  return error instanceof FaceError && (code === undefined || error.code === code);
}
