import { createHmac } from 'node:crypto';
import { constantTimeEqual } from '../../common/crypto/constant-time.js';

/** Which front door owns a login, and its reference there; bound to the merchant the login is for. */
export interface LoginOwner {
  frontDoor: string;
  ownerRef: string;
  clientId: string;
}

/**
 * The owner of a front door's login travels with the login's carrier (a parameter of the engine's authorization
 * request, which the core itself stores server-side). It is sealed with an HMAC of the cookie key, so a merchant who
 * sends such a parameter in a request of its own makes nothing the core accepts: no front door is asked, and the
 * engine's PKCE rule is not relaxed for it.
 */
export class LoginOwnerSeal {
  /**
   * `keys`: COOKIE_KEYS, the first seals. Each key opens, as with the cookies: a login begun just before the operator
   * rotated the keys must still end with its owner, not fall through to the engine as an OIDC login of the merchant.
   */
  constructor(private readonly keys: readonly string[]) {
    if (!keys.length) throw new Error('LoginOwnerSeal needs a key');
  }

  seal(owner: LoginOwner): string {
    const body = Buffer.from(JSON.stringify([owner.frontDoor, owner.ownerRef, owner.clientId]), 'utf8').toString('base64url');
    return `${body}.${this.mac(this.keys[0], body)}`;
  }

  /** The owner a sealed value names, when it is ours and for this merchant; anything else is undefined. */
  open(sealed: unknown, clientId: string): LoginOwner | undefined {
    if (typeof sealed !== 'string' || sealed.length > 2048) return undefined;
    const [body, mac, ...rest] = sealed.split('.');
    if (!body || !mac || rest.length || !this.keys.some((key) => constantTimeEqual(mac, this.mac(key, body)))) return undefined;
    const parsed: unknown = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    if (!Array.isArray(parsed) || parsed.length !== 3 || !parsed.every((v) => typeof v === 'string')) return undefined;
    const [frontDoor, ownerRef, boundTo] = parsed as string[];
    return boundTo === clientId ? { frontDoor, ownerRef, clientId } : undefined;
  }

  private mac(key: string, body: string): string {
    return createHmac('sha256', key).update(`brokered-login-owner:${body}`).digest('base64url');
  }
}
