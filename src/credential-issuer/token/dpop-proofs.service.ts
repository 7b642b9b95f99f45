import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { verifyDpopProof } from '../../../libs/eu-wallet/src/index.js';
import { Clock } from '../../common/clock.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { fromLibrary, invalidDpopProof } from '../credential-issuer.errors.js';
import { SingleUseValuesService } from '../nonces/single-use-values.service.js';

/** How old a DPoP proof may be (its iat), and so how long its jti is remembered (RFC 9449 §11.1). */
const PROOF_MAX_AGE_SECONDS = 300;
const FUTURE_SKEW_SECONDS = 60;

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

  async check(req: Request, path: string, accessToken?: string): Promise<string> {
    const header = req.headers.dpop;
    const resource = accessToken !== undefined;
    if (typeof header !== 'string' || header === '' || header.includes(',')) throw invalidDpopProof('exactly one DPoP proof is required in the DPoP header', resource);
    let proof: { jkt: string; jti: string };
    try {
      proof = verifyDpopProof({ proof: header, method: req.method, url: `${this.config.baseUrl}${path}`, accessToken, now: this.clock.now(), maxAgeSeconds: PROOF_MAX_AGE_SECONDS, futureSkewSeconds: FUTURE_SKEW_SECONDS });
    } catch (err) {
      throw fromLibrary(err, resource);
    }
    if (!(await this.singleUse.firstUseOfProof(proof.jkt, proof.jti, PROOF_MAX_AGE_SECONDS + FUTURE_SKEW_SECONDS))) throw invalidDpopProof('the DPoP proof was already used', resource);
    return proof.jkt;
  }
}
