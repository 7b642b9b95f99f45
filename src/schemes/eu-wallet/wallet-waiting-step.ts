import type { EidRequest, EidStep, ProgressStep, WaitingNotice } from '../../broker/spi/eid-provider.js';
import { WALLET_MESSAGES, type WalletMessages } from './wallet-messages.js';
import type { WalletTransactionEntity } from './transactions/wallet-transaction.entity.js';
import type { WalletAttempt } from './transactions/wallet-transactions.service.js';

/** The two wallet invocations of a try (OpenID4VP 1.0 §5.10): each link names its own transaction's request_uri. */
export interface WalletLinks {
  /** haip-vp:// and openid4vp:// for a wallet on this device (the same-device transaction). */
  sameDevice: { haip: string; plain: string };
  /** openid4vp:// in the QR code and the link to copy (the cross-device transaction). */
  crossDevice: string;
}

type Row = Pick<WalletTransactionEntity, 'status' | 'expiresAt' | 'failure' | 'failures' | 'updatedAt'>;

/** The wallet's waiting page: the QR code and copy link of one transaction, the buttons of the other. */
export async function walletWaitingStep(request: EidRequest, attempt: WalletAttempt, links: WalletLinks | undefined): Promise<EidStep> {
  const texts = WALLET_MESSAGES[request.locale];
  const qrSvg = links
    ? await (await import('qrcode')).default.toString(links.crossDevice, { type: 'svg', errorCorrectionLevel: 'M', margin: 2, width: 240 })
    : '';
  const notice = walletNotice(attempt, texts);
  return {
    kind: 'waiting',
    title: texts.title,
    qrSvg,
    link: links?.sameDevice.haip ?? '',
    copyLink: links?.crossDevice,
    statusUrl: `/its/interaction/${request.interactionUid}/wallet-status`,
    state: attemptStatus(attempt),
    progress: attemptProgress(attempt),
    texts,
    steps: [{ id: 'phone_connected', label: texts.phone_connected }],
    // Anyone who sees the QR code may fetch its request; the person's own wallet still can, so the code stays shown.
    keepHandoff: true,
    // HAIP wallets open haip-vp://; other OpenID4VP wallets only openid4vp:// (OpenID4VP 1.0 §13.1.1).
    ...(links ? { alternate: { label: texts.openOther, href: links.sameDevice.plain } } : {}),
    ...(notice ? { notice } : {}),
  };
}

/** A try is open while both its transactions are: nothing taken, nothing closed, not expired. */
export function attemptOpen(attempt: WalletAttempt, now = new Date()): boolean {
  return [attempt.sameDevice, attempt.crossDevice].every((tx) => tx.expiresAt > now && (tx.status === 'created' || tx.status === 'request_fetched'));
}

/** The try as one step: a wallet fetched a request; an answer was taken; or the try expired. */
export function attemptProgress(attempt: WalletAttempt, now = new Date()): ProgressStep {
  const rows = [attempt.sameDevice, attempt.crossDevice];
  if (rows.some((tx) => tx.status === 'responded' || tx.status === 'consumed')) return 'done';
  if (rows.some((tx) => tx.expiresAt <= now || tx.status === 'failed')) return 'stopped';
  if (rows.some((tx) => tx.status === 'request_fetched')) return 'phone_connected';
  return 'waiting';
}

function attemptStatus(attempt: WalletAttempt): string {
  const order = ['created', 'request_fetched', 'failed', 'responded', 'consumed'];
  return [attempt.sameDevice.status, attempt.crossDevice.status].sort((a, b) => order.indexOf(b) - order.indexOf(a))[0];
}

/**
 * The newest refused answer of the try, for the person: `key` counts the refusals, so each new one is shown once.
 * A refusal is noted, never final: the page says so and offers a fresh request beside the ways it always has.
 */
export function noticeKey(attempt: WalletAttempt): string {
  const count = attempt.sameDevice.failures + attempt.crossDevice.failures;
  return count > 0 ? String(count) : '';
}

function walletNotice(attempt: WalletAttempt, texts: WalletMessages): WaitingNotice | undefined {
  const key = noticeKey(attempt);
  if (!key || attemptProgress(attempt) === 'done') return undefined;
  const last = [attempt.sameDevice, attempt.crossDevice].filter((tx) => tx.failures > 0).sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime())[0];
  return { key, text: `${noticeText(last, texts)} ${texts.answerAgain}`, retry: texts.tryAgain };
}

function noticeText(tx: Row, texts: WalletMessages): string {
  if (tx.failure?.startsWith('wallet_')) return texts.declined;
  if (tx.failure === 'revoked' || tx.failure === 'expired' || tx.failure === 'certificate_revoked') return texts.revoked;
  return texts.refused;
}
