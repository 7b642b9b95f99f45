/** The error object of spec 2.7, extended with field messages and the request id for support staff. */
export interface ErrorBody {
  error: string;
  error_description: string;
  error_uri?: string;
  fields?: Record<string, string[]>;
  request_id?: string;
  /** capture_retry only: the reason code and the words for the user in the phone's language. */
  retry_reason?: string;
  retry_message?: string;
}

/** An error object of another shape a spec operation defines (AppError.replacementBody), with the request id. */
export type ReplacementErrorBody = Record<string, string | undefined> & { request_id?: string };
