/** An error answer of the app API: HTTP status plus the spec's error object. */
export class VerifierApiError extends Error {
  /** capture_retry only: what to tell the user, in the language the client asked for (VerifierClient.acceptLanguage). */
  retryMessage?: string;

  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
    readonly requestId?: string,
  ) {
    super(`${status} ${error}: ${description}`);
    this.name = 'VerifierApiError';
  }

  /** The centre frame was unusable (422 capture_retry): the reason code, e.g. FACE_TOO_BLURRED; capture again with a new challenge. */
  get retryReason(): string | undefined {
    return this.error === 'capture_retry' ? /^([A-Z_]+):/.exec(this.description)?.[1] : undefined;
  }

  /** The session is gone (expired or unknown): the user must start again from the merchant's page. */
  get isSessionOver(): boolean {
    return this.status === 404 || this.status === 410;
  }
}
