/**
 * The anchor of bench-issuance: the cryptographic work of one credential request done by the library alone
 * (libs/eu-wallet, OpenID4VCI), in this process, with no HTTP, no database and no Nest. Per request: the token
 * request's DPoP proof and the credential request's (with ath) verified (RFC 9449 §4.3), the request body parsed,
 * the key proofs verified (OpenID4VCI 1.0 §8.2, Appendix F.1), then one SD-JWT VC per key with a status-list index,
 * signed with an ES256 key whose x5c is one certificate (as the service's test signer). Proofs are signed before the
 * clock starts; what the service's wallets sign is not the service's CPU either.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  issueVerifiedIdentityCredential,
  parseCredentialRequestBody,
  proofNonce,
  verifyDpopProof,
  verifyKeyProofs,
  type CredentialSigner,
  createTestSigner,
} from '@identity-broker/eu-wallet';
import { credentialContent } from '../../src/credential-issuer/credential/credential-claims.js';
import { dpopProof, keyProof, passedRecord } from '../../test/support/credential-issuer.js';
import { walletKeys } from './issuance-wallet.js';

const BASE = 'https://issuer.bench.example';
const ISSUER = `${BASE}/vci`;
const VCT = `${BASE}/vct/verified-document-identity`;
const DAY_MS = 86_400_000;
const MAX_PROOFS = 10;

interface PreparedRequest {
  tokenDpop: string;
  accessToken: string;
  credentialDpop: string;
  body: { credential_configuration_id: string; proofs: { jwt: string[] } };
}

export interface LibraryIssuer {
  /** Issues `requests × proofsPerRequest` credentials; answers credentials/s and CPU ms per credential. */
  measure(requests: number, proofsPerRequest: number): Promise<{ perSecond: number; cpuMs: number }>;
}

export async function libraryIssuer(): Promise<LibraryIssuer> {
  const test = await createTestSigner({ rootName: 'Bench Credential Issuer CA', signerName: 'Bench Credential Issuer' });
  const signer: CredentialSigner = { privateKey: test.privateKey, chain: [test.chain[0]] };
  const now = new Date();
  const content = credentialContent(passedRecord(), now, 'urn:svc:trust-framework:test');
  const expiresAt = new Date(Math.min(content.validUntil?.getTime() ?? Infinity, now.getTime() + 365 * DAY_MS));
  const statusUri = `${ISSUER}/status-lists/${randomBytes(12).toString('base64url')}`;
  let idx = 0;

  const prepare = async (requests: number, proofsPerRequest: number): Promise<PreparedRequest[]> => {
    const keys = await walletKeys(requests, proofsPerRequest);
    return Promise.all(
      keys.map(async (k) => {
        const accessToken = randomBytes(32).toString('base64url');
        const nonce = randomBytes(32).toString('base64url');
        return {
          tokenDpop: await dpopProof(k.dpop, 'POST', `${BASE}/vci/token`),
          accessToken,
          credentialDpop: await dpopProof(k.dpop, 'POST', `${BASE}/vci/credential`, {
            ath: createHash('sha256').update(accessToken, 'ascii').digest('base64url'),
          }),
          body: {
            credential_configuration_id: 'verified_document_identity',
            proofs: { jwt: await Promise.all(k.holders.map((h) => keyProof(h, ISSUER, nonce))) },
          },
        };
      }),
    );
  };

  const issue = async (request: PreparedRequest): Promise<number> => {
    const at = new Date();
    verifyDpopProof({ proof: request.tokenDpop, method: 'POST', url: `${BASE}/vci/token`, now: at, maxAgeSeconds: 300, futureSkewSeconds: 60 });
    verifyDpopProof({
      proof: request.credentialDpop,
      method: 'POST',
      url: `${BASE}/vci/credential`,
      accessToken: request.accessToken,
      now: at,
      maxAgeSeconds: 300,
      futureSkewSeconds: 60,
    });
    const { jwts } = parseCredentialRequestBody({ body: request.body, configurationIds: ['verified_document_identity'] });
    const holderKeys = await verifyKeyProofs({ jwts, credentialIssuer: ISSUER, expectedNonce: proofNonce(jwts), now: at, maxProofs: MAX_PROOFS });
    for (const holderJwk of holderKeys)
      await issueVerifiedIdentityCredential({
        signer,
        credentialIssuer: ISSUER,
        vct: VCT,
        claims: content.claims,
        holderJwk,
        status: { uri: statusUri, idx: idx++ },
        expiresAt,
      });
    return holderKeys.length;
  };

  return {
    async measure(requests, proofsPerRequest) {
      const prepared = await prepare(requests, proofsPerRequest);
      let issued = 0;
      const cpu = process.cpuUsage();
      const started = performance.now();
      for (const request of prepared) issued += await issue(request);
      const used = process.cpuUsage(cpu);
      return { perSecond: issued / ((performance.now() - started) / 1000), cpuMs: (used.user + used.system) / 1000 / issued };
    },
  };
}
