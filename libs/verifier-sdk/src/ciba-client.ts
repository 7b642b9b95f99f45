import { VerifierApiError } from './errors.js';
import { runVerification, type PhoneSide } from './run-verification.js';
import type { Outcome } from './types.js';
import { VerifierClient } from './verifier-client.js';

/** A backchannel (CIBA) request waiting for this app: who asks, what to show, which documents count. */
export interface CibaPendingRequest {
  id: string;
  kind: 'provisioning' | 'authentication';
  state: 'pending' | 'verifying';
  merchant_name: string;
  binding_message?: string;
  /** Plain text, or markdown; HTML removed, markdown images and non-https links disarmed by the server: show as text or render as markdown, never as HTML. */
  transaction_text?: { type: 'text' | 'markdown'; content: string };
  document_kinds: string[];
  expires_at: string;
}

export interface CibaResult {
  state: 'approved' | 'denied';
  reason?: string;
}

/**
 * The app's side of CIBA. `appId` is the id the merchant provisions (an identifier, not a secret); `appSecret`
 * (32+ characters, made once per install and kept on the device) binds this instance at provisioning, after
 * which only it sees and answers its authentication requests. A provisioning is seen and answered only with
 * the one-time code the merchant shows its user (`usingProvisioningCode`). There are no push notifications:
 * the app long-polls `pending`.
 */
export class CibaAppClient {
  constructor(
    private readonly apiBase: string,
    private readonly appId: string,
    private readonly appSecret?: string,
    private readonly fetchImpl: typeof fetch = fetch,
    private readonly provisioningCode?: string,
  ) {}

  /** The same app, presenting the provisioning code the user typed in (as typed): it sees and answers that provisioning. */
  usingProvisioningCode(code: string): CibaAppClient {
    return new CibaAppClient(this.apiBase, this.appId, this.appSecret, this.fetchImpl, code);
  }

  /** Open requests after `after` (the previous answer's cursor), waiting up to `waitSeconds` (at most 25) for one. */
  pending(after?: string, waitSeconds = 0): Promise<{ requests: CibaPendingRequest[]; cursor: string }> {
    return this.call('/requests/pending', { ...(after ? { after } : {}), wait_seconds: waitSeconds });
  }

  /** Where a request stands: `cancelled` when the merchant withdrew it (stop showing it), `expired`, or answered. */
  status(id: string): Promise<{ state: 'pending' | 'verifying' | 'approved' | 'denied' | 'cancelled' | 'expired' }> {
    return this.call(`/requests/${encodeURIComponent(id)}/status`, {});
  }

  /** Starts the document verification that answers the request; the link is a verification session link (null when already opened). */
  approve(id: string): Promise<{ session_link: string | null }> {
    return this.call(`/requests/${encodeURIComponent(id)}/approve`, {});
  }

  /** After the verification: the server decides (a provisioning binds this app; `userCode` is the code the user chose). */
  complete(id: string, userCode?: string): Promise<CibaResult> {
    return this.call(`/requests/${encodeURIComponent(id)}/complete`, userCode ? { user_code: userCode } : {});
  }

  decline(id: string): Promise<CibaResult> {
    return this.call(`/requests/${encodeURIComponent(id)}/decline`, {});
  }

  private async call<T>(path: string, body: Record<string, unknown>): Promise<T> {
    const res = await this.fetchImpl(`${this.apiBase}/ciba${path}`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({
        app_id: this.appId,
        ...(this.appSecret ? { app_secret: this.appSecret } : {}),
        ...(this.provisioningCode ? { provisioning_code: this.provisioningCode } : {}),
        ...body,
      }),
    });
    const text = await res.text();
    const json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    if (!res.ok)
      throw new VerifierApiError(
        res.status,
        String(json.error ?? 'error'),
        String(json.error_description ?? res.statusText),
        json.request_id as string | undefined,
      );
    return json as T;
  }
}

/** Approve a request the way the app does: run the document verification it asks for, then let the server decide. */
export async function approveWithVerification(
  ciba: CibaAppClient,
  request: CibaPendingRequest,
  phone: PhoneSide,
  userCode?: string,
): Promise<{ outcome: Outcome; result: CibaResult }> {
  const { session_link } = await ciba.approve(request.id);
  if (!session_link) throw new Error('the verification of this request was already opened on a device');
  const { client, qrToken } = VerifierClient.fromLink(session_link);
  const outcome = await runVerification(client, qrToken, phone);
  return { outcome, result: await ciba.complete(request.id, userCode) };
}
