import { Inject, Injectable } from '@nestjs/common';
import { createHmac, randomBytes } from 'node:crypto';
import { constantTimeEqual } from '../../common/crypto/constant-time.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';

/** Crockford's Base32: no I, L, O or U, so a code read off a screen is typed without ambiguity. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** 10 symbols of 5 bits: 50 bits. */
const LENGTH = 10;

/**
 * The one-time code that ties a provisioning to the merchant's own user (spec 4.7 Provisioning). The service
 * makes it with the request and answers it to the merchant only (`provisioning_code` in the 2.6 object); the
 * merchant shows it to its signed-in user, who types it into the app. Only an app presenting it sees the
 * provisioning request and can answer it, so knowing an app id is not enough to bind that app to oneself.
 *
 * 50 random bits against a request that lives at most CIBA_MAX_EXPIRY_SECONDS (600): even a million guesses a
 * second for the whole lifetime find it with a chance of about 1 in 2 million, so a wrong code locks nothing
 * (a lockout would let anyone who knows the app id block the user's provisioning). At rest only an HMAC under
 * SUBJECT_SECRET is kept, inside the request's sealed details; it is compared in constant time. The code opens
 * its one request and nothing else: once that request is answered, cancelled or expired it opens nothing.
 */
@Injectable()
export class ProvisioningCodes {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** A new code, grouped for reading (`K7M2Q-9XH4T`), and the hash to keep. */
  issue(): { code: string; hash: string } {
    // 256 is a multiple of 32: the low five bits of each byte are uniform.
    const symbols = [...randomBytes(LENGTH)].map((b) => ALPHABET[b & 31]).join('');
    return { code: `${symbols.slice(0, 5)}-${symbols.slice(5)}`, hash: this.hash(symbols) };
  }

  /** Whether `presented` is the code of `hash` (none presented, or none kept: no). */
  matches(presented: string | undefined, hash: string | undefined): boolean {
    const symbols = presented === undefined ? undefined : normalize(presented);
    return symbols !== undefined && hash !== undefined && constantTimeEqual(this.hash(symbols), hash);
  }

  private hash(symbols: string): string {
    return createHmac('sha256', this.config.subjectSecret).update(`ciba-provisioning-code:${symbols}`).digest('base64url');
  }
}

/** As people type it: any case, with or without the hyphen or spaces, O for 0 and I or L for 1 (Crockford). */
function normalize(typed: string): string | undefined {
  const symbols = typed.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  return symbols.length === LENGTH && [...symbols].every((c) => ALPHABET.includes(c)) ? symbols : undefined;
}
