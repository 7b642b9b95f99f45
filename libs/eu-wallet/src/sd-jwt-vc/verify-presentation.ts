import { createHash } from 'node:crypto';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { WalletCheckError } from '../errors.js';
import { allowedAlg, isObject, numericDate, parseCompactJws, verifyEcdsa, x5cChain, type CompactJws } from '../jose/compact-jws.js';
import type { CredentialSigner } from '../status-list/status-issuer.js';
import { verifyCertificateChain } from '../trust/certificate-chain.js';
import type { RevocationCheck } from '../trust/revocation-checker.js';
import { unpackDisclosures } from './disclosures.js';
import { checkIssuerNamedByLeaf } from './issuer-binding.js';
import { verifyKeyBinding } from './key-binding.js';

export interface SdJwtVcPresentationInput {
  /** The vp_token entry: `<issuer JWT>~<disclosure>~...~<KB-JWT>` (RFC 9901 §4, SD-JWT+KB). */
  presentation: string;
  /** DER roots of the PID providers' (or other issuers') trust list. */
  trustAnchors: Uint8Array[];
  acceptedVcts: string[];
  /** The nonce of this request. Whether it was already used is the caller's check (code `replayed`). */
  nonce: string;
  /** The verifier's client_id WITH its prefix, e.g. `x509_hash:...`: what the wallet puts in the KB-JWT's aud. */
  audience: string;
  now: Date;
  /** How old the KB-JWT's iat may be; default 300. */
  keyBindingMaxAgeSeconds?: number;
  /** Clock skew allowed on exp, nbf and the KB-JWT's iat; default 60. */
  clockSkewSeconds?: number;
  /** Revocation of the x5c chain's certificates (CRLs); without it, none is checked. */
  revocation?: RevocationCheck;
}

export interface SdJwtVcPresentation {
  vct: string;
  /** The claims in the clear and the disclosed ones, merged; without _sd, _sd_alg, cnf, status. */
  claims: Record<string, unknown>;
  issuer: { subject: string; anchorSubject: string };
  /** Who signed it, for the Status List Token's issuer rule (StatusListChecker.check). */
  signer: CredentialSigner;
  expiresAt?: Date;
  /** `iat`: when the issuer signed it (RFC 7519 §4.1.6), for a verifier that states when its record was created. */
  issuedAt?: Date;
  /** The Referenced Token's status (Token Status List, "Referenced Token"), for a StatusListChecker. */
  status?: { uri: string; idx: number };
}

/** Bounds before any parsing: a PID presentation is a few KiB; 64 KiB and 256 Disclosures leave room for others. */
const MAX_PRESENTATION_CHARS = 64 * 1024;
const MAX_DISCLOSURES = 256;
const SD_JWT_CHARS = /^[A-Za-z0-9_\-.~]+$/;

/** The hasher @sd-jwt/core decodes with: sha-256 only, the one `_sd_alg` accepted here. */
const sha256Hasher = (data: string | ArrayBuffer, alg: string): Uint8Array => {
  if (alg !== 'sha-256') throw new WalletCheckError('unexpected_credential', '_sd_alg is not sha-256');
  return new Uint8Array(
    createHash('sha256')
      .update(typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data))
      .digest(),
  );
};
const decoder = new SDJwtVcInstance({ hasher: sha256Hasher });

const subjectLine = (subject: string) => subject.replace(/\n/g, ', ');

/** `exp` and `iat` (NumericDate, RFC 7519 §2) as dates, each only when the credential has it. */
const validity = (exp: number | undefined, iat: number | undefined): Pick<SdJwtVcPresentation, 'expiresAt' | 'issuedAt'> => ({
  ...(exp !== undefined ? { expiresAt: new Date(exp * 1000) } : {}),
  ...(iat !== undefined ? { issuedAt: new Date(iat * 1000) } : {}),
});

/**
 * Verifies an SD-JWT VC presentation with key binding (SD-JWT VC draft, "Verification and Processing"; RFC 9901 §7.1
 * and §7.3; HAIP 1.0's SD-JWT VC profile). Every refusal is a WalletCheckError; any other error from a library on
 * hostile input becomes `malformed`. The Referenced Token's status is returned, not checked: see StatusListChecker.
 */
export async function verifySdJwtVcPresentation(input: SdJwtVcPresentationInput): Promise<SdJwtVcPresentation> {
  try {
    return await verify(input);
  } catch (error) {
    if (error instanceof WalletCheckError) throw error;
    throw new WalletCheckError('malformed', 'the SD-JWT VC presentation could not be processed', { cause: error });
  }
}

function split(presentation: unknown): { issuerJwt: string; disclosures: string[]; kbJwt: string; withoutKb: string } {
  if (typeof presentation !== 'string' || presentation.length > MAX_PRESENTATION_CHARS) {
    throw new WalletCheckError('malformed', `the presentation is not a string of at most ${MAX_PRESENTATION_CHARS} characters`);
  }
  if (!SD_JWT_CHARS.test(presentation)) throw new WalletCheckError('malformed', 'the presentation has characters an SD-JWT cannot have');
  // RFC 9901 §4: <Issuer-signed JWT>~<Disclosure 1>~...~<Disclosure N>~<KB-JWT>; without a `~` it is no SD-JWT.
  const parts = presentation.split('~');
  if (parts.length < 2) throw new WalletCheckError('malformed', 'the presentation is not an SD-JWT (no ~)');
  const kbJwt = parts[parts.length - 1];
  const disclosures = parts.slice(1, -1);
  if (disclosures.length > MAX_DISCLOSURES) throw new WalletCheckError('malformed', `more than ${MAX_DISCLOSURES} disclosures`);
  if (disclosures.some((d) => d.length === 0)) throw new WalletCheckError('malformed', 'an empty disclosure (~~)');
  // HAIP 1.0 and RFC 9901 §7.3 step 5 as this verifier's policy: key binding is required, so SD-JWT without KB-JWT fails.
  if (kbJwt.length === 0) throw new WalletCheckError('wrong_binding', 'the presentation has no key binding JWT');
  return { issuerJwt: parts[0], disclosures, kbJwt, withoutKb: presentation.slice(0, presentation.length - kbJwt.length) };
}

/** SD-JWT VC draft, "JOSE Header": typ dc+sd-jwt (vc+sd-jwt was the old media type, not accepted); alg in the allowlist. */
function checkHeader(jws: CompactJws) {
  if (jws.header.typ !== 'dc+sd-jwt') throw new WalletCheckError('unexpected_credential', 'the issuer JWT typ is not dc+sd-jwt');
  const alg = allowedAlg(jws.header, 'issuer JWT');
  // RFC 9901 §4.1.1: _sd_alg names the digest algorithm; absent means sha-256. Only sha-256 is accepted here.
  const sdAlg = jws.payload._sd_alg;
  if (sdAlg !== undefined && sdAlg !== 'sha-256') throw new WalletCheckError('unexpected_credential', '_sd_alg is not sha-256');
  return alg;
}

/** Token Status List draft, "Referenced Token": status.status_list {idx, uri}. Another status mechanism fails closed. */
function statusReference(payload: Record<string, unknown>): SdJwtVcPresentation['status'] {
  if (payload.status === undefined) return undefined;
  const list = isObject(payload.status) ? payload.status.status_list : undefined;
  if (!isObject(list) || !Number.isSafeInteger(list.idx) || (list.idx as number) < 0 || typeof list.uri !== 'string' || list.uri.length === 0) {
    throw new WalletCheckError('malformed', 'status is not a status_list reference {idx, uri}');
  }
  return { uri: list.uri, idx: list.idx as number };
}

async function verify(input: SdJwtVcPresentationInput): Promise<SdJwtVcPresentation> {
  const { issuerJwt, disclosures, kbJwt, withoutKb } = split(input.presentation);
  const skew = input.clockSkewSeconds ?? 60;
  const jws = parseCompactJws(issuerJwt, 'issuer JWT');
  const alg = checkHeader(jws);
  // HAIP 1.0: the issuer's key comes from x5c, a chain to a trust anchor of the PID provider list.
  const chain = verifyCertificateChain(x5cChain(jws.header, 'issuer JWT'), input.trustAnchors, input.now);
  const { leaf, anchor } = chain;

  let decoded: Awaited<ReturnType<SDJwtVcInstance['decode']>>;
  try {
    decoded = await decoder.decode(input.presentation);
  } catch (cause) {
    throw new WalletCheckError('malformed', 'the SD-JWT does not decode', { cause });
  }
  if (!decoded.jwt || !decoded.kbJwt) throw new WalletCheckError('malformed', 'the SD-JWT does not decode');

  // Types of the time claims first: @sd-jwt/core tests them by truthiness, so `"exp": "x"` or `0` would pass there.
  const exp = numericDate(jws.payload, 'exp', 'issuer JWT');
  const nbf = numericDate(jws.payload, 'nbf', 'issuer JWT');
  const iat = numericDate(jws.payload, 'iat', 'issuer JWT');
  const nowSeconds = Math.floor(input.now.getTime() / 1000);
  // @sd-jwt/core's Jwt.verify: exp, nbf, iat against now with skew, then the signature through our callback (x5c leaf).
  let signature: boolean | undefined;
  const verifier = (data: string, sig: string) => (signature = verifyEcdsa(alg, leaf.publicKey, data, sig));
  try {
    await decoded.jwt.verify(verifier, { currentDate: nowSeconds, skewSeconds: skew });
  } catch (cause) {
    // It checks the times before the signature: a forged token must read as forged, not as expired.
    if (signature === undefined) verifier(jws.signingInput, jws.signature);
    if (signature === false) throw new WalletCheckError('invalid_signature', 'the issuer JWT is not signed by its x5c certificate', { cause });
    throw new WalletCheckError('expired', 'the credential is expired or not yet valid', { cause });
  }
  if (signature !== true) throw new WalletCheckError('invalid_signature', 'the issuer JWT signature was not checked');
  // After the signature (a forged iss reads as forged): the iss must be one the x5c leaf names (issuer-binding.ts).
  checkIssuerNamedByLeaf(jws.payload.iss, leaf);
  // The same time checks here too, not depending on the library's truthiness tests (exp 0 is an expired credential).
  if ((exp !== undefined && exp + skew < nowSeconds) || (nbf !== undefined && nbf - skew > nowSeconds)) {
    throw new WalletCheckError('expired', 'the credential is expired or not yet valid');
  }

  // SD-JWT VC draft, "vct": the credential type, which @sd-jwt/sd-jwt-vc does not compare with anything.
  const vct = jws.payload.vct;
  if (typeof vct !== 'string' || !input.acceptedVcts.includes(vct)) throw new WalletCheckError('unexpected_credential', 'the credential vct is not accepted');

  const claims = unpackDisclosures(jws.payload, disclosures);
  await verifyKeyBinding({
    encoded: kbJwt,
    decoded: decoded.kbJwt,
    issuerPayload: jws.payload,
    presentedWithoutKb: withoutKb,
    nonce: input.nonce,
    audience: input.audience,
    now: input.now,
    maxAgeSeconds: input.keyBindingMaxAgeSeconds ?? 300,
    skewSeconds: skew,
  });

  const status = statusReference(jws.payload);
  // Last, for it may fetch CRLs: only for a credential that passed every other check, so a forgery costs no request.
  await input.revocation?.checkPath(chain.path);
  delete claims.cnf;
  delete claims.status;
  return {
    vct,
    claims,
    issuer: { subject: subjectLine(leaf.subject), anchorSubject: subjectLine(anchor.subject) },
    signer: { leaf, anchor, format: 'sd-jwt', ...(typeof jws.payload.iss === 'string' ? { iss: jws.payload.iss } : {}) },
    ...validity(exp, iat),
    ...(status ? { status } : {}),
  };
}
