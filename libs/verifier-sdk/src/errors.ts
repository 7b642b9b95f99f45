/** An error answer of the app API: HTTP status plus the spec's error object. */
export class VerifierApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
    readonly requestId?: string,
  ) {
    super(`${status} ${error}: ${description}`);
    this.name = 'VerifierApiError';
  }

  /** The session is gone (expired or unknown): the user must start again from the merchant's page. */
  get isSessionOver(): boolean {
    return this.status === 404 || this.status === 410;
  }
}
