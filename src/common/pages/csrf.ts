import { createHmac } from 'node:crypto';
import { constantTimeEqual } from '../crypto/constant-time.js';

/**
 * CSRF tokens for the broker's forms: bound to the interaction (whose id only the user's browser knows,
 * next to its interaction cookie) and keyed with the cookie signing key, so a third-party page can
 * neither read nor forge one.
 */
export class CsrfTokens {
  constructor(private readonly key: string) {}

  issue(interactionUid: string): string {
    return createHmac('sha256', this.key).update(`csrf:${interactionUid}`).digest('base64url');
  }

  verify(interactionUid: string, presented: unknown): boolean {
    return typeof presented === 'string' && constantTimeEqual(presented, this.issue(interactionUid));
  }
}
