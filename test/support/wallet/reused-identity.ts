/**
 * The service's own reusable credential in tests, before its issuer exists on this branch: a stand-in provider of
 * the ReusableCredentials extension point (the test PKI's root, the contract's vct and iss), credentials issued with
 * the specimen issuer under the contract's claim names, and a small holder that presents them (@meeco/sd-jwt picks
 * the disclosures, jose signs the key-binding JWT). The test wallet of scripts/test-wallet answers only the EU
 * wallet's credentials, so this holder reads the request and posts the answer through it and presents by itself.
 */
import { createHash, type KeyObject } from 'node:crypto';
import { Inject, Injectable, Module, type DynamicModule } from '@nestjs/common';
import { SDJsonpath } from '@meeco/sd-jwt';
import { SignJWT } from 'jose';
import { issueSdJwtVc, type TestSigner } from '@identity-broker/eu-wallet';
import { ReusableCredentials, type ReusableCredentialProvider } from '../../../src/broker/spi/reusable-credentials.js';
import { APP_CONFIG, type AppConfig } from '../../../src/config/load-config.js';
import { encryptResponse } from '../../../scripts/test-wallet/encrypt-response.js';
import type { RequestView } from '../../../scripts/test-wallet/request-object.js';
import type { TestWallet, WalletAnswer } from '../../../scripts/test-wallet/wallet.js';

const STAND_IN_SIGNER = Symbol('STAND_IN_SIGNER');

/** The contract's identifiers (docs: OpenID4VCI contract): `${BASE_URL}/vci` and `${BASE_URL}/vct/verified-document-identity`. */
export const reusedIdentityVct = (baseUrl: string) => `${baseUrl}/vct/verified-document-identity`;
export const reusedIdentityIssuer = (baseUrl: string) => `${baseUrl}/vci`;

@Injectable()
@ReusableCredentials()
class StandInReusableCredentials implements ReusableCredentialProvider {
  readonly vct: string;
  readonly issuer: string;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(STAND_IN_SIGNER) private readonly signer: TestSigner,
  ) {
    this.vct = reusedIdentityVct(config.baseUrl);
    this.issuer = reusedIdentityIssuer(config.baseUrl);
  }

  async anchors(): Promise<Uint8Array[]> {
    return [this.signer.root];
  }
}

@Module({})
class StandInReusableCredentialsModule {}

/** The stand-in provider, trusting `signer`'s root. */
export function standInReusableCredentials(signer: TestSigner): DynamicModule {
  return { module: StandInReusableCredentialsModule, providers: [{ provide: STAND_IN_SIGNER, useValue: signer }, StandInReusableCredentials] };
}

/** A person's credential as the contract lists its claims (ISO dates, ICAO codes, spec values). */
export const reusedIdentitySpecimen = (verifiedAt: string) => ({
  document_type: 'PASSPORT',
  issuing_country: 'D',
  document_number: 'C01X00T47',
  date_of_expiry: '2031-10-31',
  primary_identifier: 'MUSTERMANN',
  secondary_identifier: 'ERIKA',
  name: 'ERIKA MUSTERMANN',
  birthdate: '1964-08-12',
  nationality: 'D',
  gender: 'FEMALE',
  place_of_birth: 'BERLIN',
  age_equal_or_over: { '12': true, '14': true, '16': true, '18': true, '21': true, '65': false },
  facematch_level: 7,
  verified_at: verifiedAt,
  assurance: 'high',
});

export interface ReusableCredentialOptions {
  signer: TestSigner;
  holderKey: KeyObject;
  iss: string;
  vct: string;
  claims: Record<string, unknown>;
  status?: { uri: string; idx: number };
  /** Default: a year from now (an expired credential for the refusals). */
  expiresAt?: Date;
}

/** Issues it as the contract says: iss, vct, exp, cnf, status in the clear; every other claim (and each age) disclosable. */
export function issueReusableCredential(options: ReusableCredentialOptions): Promise<string> {
  const { iss, claims } = options;
  const ages = claims.age_equal_or_over as Record<string, unknown> | undefined;
  return issueSdJwtVc({
    signer: options.signer,
    holderKey: options.holderKey,
    vct: options.vct,
    status: options.status,
    ...(options.expiresAt && { issuedAt: new Date(options.expiresAt.getTime() - 30 * 86_400_000), expiresAt: options.expiresAt }),
    claims: { iss, ...claims },
    disclosureFrame: { _sd: Object.keys(claims), ...(ages ? { age_equal_or_over: { _sd: Object.keys(ages) } } : {}) },
  });
}

interface ClaimQuery {
  id?: string;
  path: (string | number | null)[];
}
interface CredentialQuery {
  id: string;
  claims?: ClaimQuery[];
  claim_sets?: string[][];
}

const decodeDisclosures = (credential: string) =>
  credential
    .split('~')
    .slice(1)
    .filter(Boolean)
    .map((d) => JSON.parse(Buffer.from(d, 'base64url').toString('utf8')) as unknown[]);
const hasher = async () => (data: string) => createHash('sha256').update(data).digest('base64url');

/**
 * The claims to disclose: all of them without claim_sets; else the first set (OpenID4VP 1.0 §6.4.1, in order of
 * preference) whose every claim the credential holds (a top-level name, or a member of a disclosed object).
 */
export function chooseClaims(credential: string, query: CredentialQuery): ClaimQuery['path'][] {
  const claims = query.claims ?? [];
  if (!query.claim_sets) return claims.map((c) => c.path);
  const names = new Set(
    decodeDisclosures(credential)
      .filter((d) => d.length === 3)
      .map((d) => String(d[1])),
  );
  const held = (c: ClaimQuery) => names.has(String(c.path.at(-1))) && names.has(String(c.path[0]));
  const set = query.claim_sets.find((ids) => ids.every((id) => held(claims.find((c) => c.id === id)!)));
  if (!set) throw new Error('holder: the credential satisfies none of the claim sets');
  return set.map((id) => claims.find((c) => c.id === id)!.path);
}

export interface ReusedPresentationOptions {
  holderKey: KeyObject;
  nonce: string;
  aud: string;
  /** Change the chosen disclosures before the key binding is signed over them (attacks). */
  tamper?: (disclosures: string[]) => string[];
}

/** SD-JWT+KB (RFC 9901 §4.3) with the disclosures of `paths`; the KB-JWT's sd_hash over what is presented. */
export async function presentReused(credential: string, paths: ClaimQuery['path'][], options: ReusedPresentationOptions): Promise<string> {
  const jsonPaths = paths.map((p) => `$.${p.join('.')}`);
  const selected = await SDJsonpath.getJWT(credential, jsonPaths, hasher);
  const [jwt, ...rest] = selected.split('~');
  const disclosures = (options.tamper ?? ((d) => d))(rest.filter((d) => d.length > 0));
  const withoutKb = `${[jwt, ...disclosures].join('~')}~`;
  const sdHash = createHash('sha256').update(withoutKb, 'ascii').digest('base64url');
  const kb = await new SignJWT({ nonce: options.nonce, aud: options.aud, iat: Math.floor(Date.now() / 1000), sd_hash: sdHash })
    .setProtectedHeader({ alg: 'ES256', typ: 'kb+jwt' })
    .sign(options.holderKey);
  return `${withoutKb}${kb}`;
}

/**
 * A holder of one reusable credential: the test wallet reads the request (its signature, the wallet_nonce) and posts
 * the encrypted answer; this presents `reused_identity` by the query's claims.
 */
export class ReusedIdentityHolder {
  constructor(
    private readonly wallet: TestWallet,
    private readonly credential: string,
    private readonly holderKey: KeyObject,
  ) {}

  async answer(link: string, options: { tamper?: ReusedPresentationOptions['tamper'] } = {}): Promise<WalletAnswer & { asked: ClaimQuery['path'][] }> {
    const request: RequestView = await this.wallet.read(link);
    const query = (request.claims.dcql_query.credentials as CredentialQuery[]).find((c) => c.id === 'reused_identity');
    if (!query) throw new Error('holder: the request does not ask for the reused identity credential');
    const paths = chooseClaims(this.credential, query);
    const presentation = await presentReused(this.credential, paths, {
      holderKey: this.holderKey,
      nonce: request.claims.nonce,
      aud: request.claims.client_id,
      tamper: options.tamper,
    });
    const encrypted = await encryptResponse(request, { vp_token: { reused_identity: [presentation] }, state: request.claims.state });
    return { ...(await this.wallet.post(request, { response: encrypted })), asked: paths };
  }
}
