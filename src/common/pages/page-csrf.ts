import type { Request, Response } from 'express';
import { randomBytes } from 'node:crypto';
import { CsrfTokens } from './csrf.js';

/** What the page's cookie needs of the configuration. */
export interface PageCsrfConfig {
  cookieKeys: readonly string[];
  baseUrl: string;
}

/**
 * CSRF for a page that has no interaction to bind its forms to (the CIBA test page, the credential revocation page):
 * a random HttpOnly, SameSite=Strict cookie of the page's path, set when the page is shown, and form tokens bound to
 * it and to what the form is about (`subject`), keyed with the cookie signing key. Another site can neither read the
 * cookie nor forge a token, and one form's token does not serve another subject.
 */
export class PageCsrf {
  private readonly tokens: CsrfTokens;
  private readonly secure: string;
  private readonly cookiePattern: RegExp;

  /** `cookie` a name of [a-z_] only; `purpose` keeps this page's tokens apart from every other page's. */
  constructor(
    config: PageCsrfConfig,
    private readonly cookie: string,
    private readonly path: string,
    private readonly purpose: string,
  ) {
    this.tokens = new CsrfTokens(config.cookieKeys[0]);
    this.secure = config.baseUrl.startsWith('https://') ? '; Secure' : '';
    this.cookiePattern = new RegExp(`(?:^|;\\s*)${cookie}=([A-Za-z0-9_-]{32})(?:;|$)`);
  }

  /** The token for the form the page shows; sets the page's cookie on `res` when the browser sent none. */
  issue(req: Request, res: Response, subject = ''): string {
    let nonce = this.nonceOf(req);
    if (!nonce) {
      nonce = randomBytes(24).toString('base64url');
      res.setHeader('Set-Cookie', `${this.cookie}=${nonce}; Path=${this.path}; HttpOnly; SameSite=Strict${this.secure}`);
    }
    return this.tokens.issue(`${this.purpose}:${nonce}${subject && `:${subject}`}`);
  }

  /** True when the form's `presented` token was issued to this browser (its cookie) for `subject`. */
  verify(req: Request, presented: unknown, subject = ''): boolean {
    const nonce = this.nonceOf(req);
    return nonce !== undefined && this.tokens.verify(`${this.purpose}:${nonce}${subject && `:${subject}`}`, presented);
  }

  private nonceOf(req: Request): string | undefined {
    return this.cookiePattern.exec(req.headers.cookie ?? '')?.[1];
  }
}
