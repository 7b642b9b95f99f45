import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { verifyDpopProof } from '@identity-broker/eu-wallet';
import { Clock } from '../../common/clock.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { fromLibrary, invalidDpopProof } from '../credential-issuer.errors.js';
import { SingleUseValuesService } from '../nonces/single-use-values.service.js';

/** How old a DPoP proof may be (its iat), and so how long its jti is remembered (RFC 9449 §11.1). */
const PROOF_MAX_AGE_SECONDS = 300;
const FUTURE_SKEW_SECONDS = 60;

/** A DPoP proof whose signature, method, URL, age (and `ath`) passed; its single use is not yet recorded. */
export interface CheckedProof {
  /** The key's thumbprint, to which a token is bound. */
  jkt: string;
  /**
   * Records the proof's jti, or refuses the request as a replay (invalid_dpop_proof). Called by the endpoint once the
   * request authenticated (its code, or its access token bound to this key). RFC 9449 §11.1 asks to refuse a proof
   * seen before; a proof from a caller who had neither got nothing done, and sent again gets nothing done either, so
   * remembering it would only let anyone fill the store.
   */
  spend(): Promise<void>;
}

/**
 * The DPoP proof of a request to the token or credential endpoint (RFC 9449 §4.3): one `DPoP` header, signed by a
 * public key it carries, for this method and this URL (as the wallet sees it, under BASE_URL), recent, never seen
 * before, and at the credential endpoint bound to the access token (`ath`). Answers the key's thumbprint, to which the
 * token is bound (HAIP 1.0 requires DPoP: a Bearer token another wallet copied is worth nothing).
 */
@Injectable()
export class DpopProofsService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly singleUse: SingleUseValuesService,
  ) {}

  /** The checks that need no state; the caller spends the proof (CheckedProof.spend) after its own authentication. */
  check(req: Request, path: string, accessToken?: string): CheckedProof {
    const header = req.headers.dpop;
    const resource = accessToken !== undefined;
    if (typeof header !== 'string' || header === '' || header.includes(','))
      throw invalidDpopProof('exactly one DPoP proof is required in the DPoP header', resource);
    let proof: { jkt: string; jti: string; iat: number };
    try {
      proof = verifyDpopProof({
        proof: header,
        method: req.method,
        url: `${this.config.baseUrl}${path}`,
        accessToken,
        now: this.clock.now(),
        maxAgeSeconds: PROOF_MAX_AGE_SECONDS,
        futureSkewSeconds: FUTURE_SKEW_SECONDS,
      });
    } catch (err) {
      throw fromLibrary(err, resource);
    }
    // Past iat + PROOF_MAX_AGE_SECONDS the proof is refused as too old: its jti need not be kept longer (one second spare).
    const untilMs = (proof.iat + PROOF_MAX_AGE_SECONDS + 1) * 1000;
    return {
      jkt: proof.jkt,
      spend: async () => {
        if (!(await this.singleUse.firstUseOfProof(proof.jkt, proof.jti, untilMs))) throw invalidDpopProof('the DPoP proof was already used', resource);
      },
    };
  }
}
