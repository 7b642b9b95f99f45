import { setGlobalConfig } from '@openid4vc/utils';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** An http URL on this machine, allowed only where the caller asked for it (a test environment, never production). */
export function isAllowedLoopbackHttp(url: URL | undefined, allowed: boolean | undefined): boolean {
  return allowed === true && url?.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}

/**
 * @openid4vc refuses every http URL unless told otherwise, process-wide. A test environment on this machine
 * (customer-test on http://127.0.0.1) asks for loopback http explicitly; any other http identifier stays refused.
 * Call right before the library call that validates `identifier`.
 */
export function allowLoopbackHttpFor(identifier: string, allowed: boolean | undefined): void {
  setGlobalConfig({ allowInsecureUrls: isAllowedLoopbackHttp(URL.canParse(identifier) ? new URL(identifier) : undefined, allowed) });
}
