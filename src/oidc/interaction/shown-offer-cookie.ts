import type { Request, Response } from 'express';
import type { SecretBox } from '../../common/crypto/secret-box.js';
import type { ShownOffer } from '../../broker/spi/credential-offers.js';

const NAME = 'broker_offer';
const PATTERN = new RegExp(`(?:^|;\\s*)${NAME}=([A-Za-z0-9_.-]+)(?:;|$)`);

/**
 * The credential offer a login showed, kept between the POST that made it and the GET that shows it (and shows it
 * again on a reload): in the browser that made it, sealed (AES-GCM, bound to the interaction and the scheme), in an
 * HttpOnly cookie of that interaction's path that expires with the offer (once the login has ended, the interaction's
 * pages answer that it has, so the cookie needs no removing). Another browser has no such cookie, and the
 * GET needs the interaction's own cookie besides; a cookie moved to another interaction or scheme fails to open.
 */
export class ShownOfferCookie {
  private readonly secure: string;

  constructor(
    private readonly box: SecretBox,
    baseUrl: string,
  ) {
    this.secure = baseUrl.startsWith('https://') ? '; Secure' : '';
  }

  keep(res: Response, pagesPath: string, uid: string, scheme: string, offer: ShownOffer, now = new Date()): void {
    const sealed = this.box.encrypt(JSON.stringify(offer), context(uid, scheme));
    const maxAge = Math.max(0, Math.floor((offer.expiresAt.getTime() - now.getTime()) / 1000));
    res.append('Set-Cookie', `${NAME}=${sealed}; Path=${pagesPath}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${this.secure}`);
  }

  /** The offer this browser was shown in this interaction for this scheme, while it is valid. */
  read(req: Request, uid: string, scheme: string, now = new Date()): ShownOffer | undefined {
    const sealed = PATTERN.exec(req.headers.cookie ?? '')?.[1];
    if (!sealed) return undefined;
    let parsed: Omit<ShownOffer, 'expiresAt'> & { expiresAt: string };
    try {
      parsed = JSON.parse(this.box.decryptText(sealed, context(uid, scheme))) as typeof parsed;
    } catch {
      // Another interaction's or scheme's, or sealed with a key no longer configured: as if there were none.
      return undefined;
    }
    const offer = { ...parsed, expiresAt: new Date(parsed.expiresAt) };
    return offer.expiresAt.getTime() > now.getTime() ? offer : undefined;
  }
}

const context = (uid: string, scheme: string) => `broker-offer:${uid}:${scheme}`;
