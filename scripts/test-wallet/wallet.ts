/**
 * A test wallet for the EU wallet scheme, of holder-side code only: jose for the request object, the JWE and the
 * key-binding JWT, @meeco/sd-jwt to choose disclosures, @auth0/mdl for mdoc presentations, and its own session
 * transcript. It holds a PID as SD-JWT VC, a PID as mdoc and an mDL, and (from a credential store) the SD-JWT VCs it
 * received over OpenID4VCI; takes the wallet link the broker page shows (or its QR code's), and answers with only the
 * claims the DCQL query asks for. Nothing here imports the verifier.
 */
import { createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { JWK } from 'jose';
import type { CredentialStore, StoredCredential } from './credential-store.js';
import { chooseAnswers, claimsToDisclose, type DcqlCredential, type DcqlQuery } from './dcql-choice.js';
import { encryptResponse } from './encrypt-response.js';
import { presentMdoc } from './mdoc-presentation.js';
import { readRequestObject, type RequestView } from './request-object.js';
import { disclosuresFor } from './sd-jwt-paths.js';
import { presentSdJwt } from './sd-jwt-presentation.js';

export type { DcqlCredential } from './dcql-choice.js';

export type HeldCredential = { kind: 'pid_sd_jwt'; credential: string; holderKey: KeyObject } | { kind: 'pid_mdoc' | 'mdl'; mdoc: Uint8Array; deviceKey: JWK };

/** A stored credential chosen for one query, with the JSONPaths of the disclosures that answer it. */
export interface StoredChoice {
  kind: 'stored';
  stored: StoredCredential;
  selection: string[];
}

/** What answers one credential query: a built-in credential, or one from the store. */
export type Answering = HeldCredential | StoredChoice;

export interface WalletAnswer {
  status: number;
  body: Record<string, unknown>;
  /** What the wallet asked and saw, for tests that check the request itself. */
  request: RequestView;
}

export interface AnswerOptions {
  /** Which credential query to answer (its DCQL id); default: the DCQL choice (credential_sets, dcql-choice.ts). */
  use?: string;
  /** Send this form instead of the encrypted answer (attacks). */
  form?: (encrypted: string, request: RequestView) => Record<string, string>;
  /** Bind the presentation to another request than the one read (attacks): its nonce, client_id or response_uri. */
  bindTo?: { nonce?: string; clientId?: string; responseUri?: string };
}

/** A new P-256 key for a credential: the private key, and the public JWK an issuer binds. */
export const newHolderKey = () => {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const { kty, crv, x, y } = privateKey.export({ format: 'jwk' });
  return { privateKey, publicJwk: { kty, crv, x, y } as JWK };
};

export class TestWallet {
  constructor(
    /** The root the wallet trusts for request signers (customer-test's relying party CA). */
    private readonly requestSignerRoot: Uint8Array,
    readonly held: HeldCredential[],
    /** Credentials received over OpenID4VCI; each presentation uses the least used one that fits. */
    readonly store?: CredentialStore,
  ) {}

  /** Takes a wallet link (`openid4vp://?client_id=…&request_uri=…&request_uri_method=post`), fetches and reads the request. */
  async read(link: string, walletNonce = 'wallet-nonce-0123456789'): Promise<RequestView> {
    const params = new URL(link).searchParams;
    if (params.get('request_uri_method') !== 'post') throw new Error('wallet: expected request_uri_method=post');
    const res = await fetch(params.get('request_uri')!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/oauth-authz-req+jwt' },
      body: new URLSearchParams({ wallet_nonce: walletNonce, wallet_metadata: JSON.stringify({ vp_formats_supported: { 'dc+sd-jwt': {}, mso_mdoc: {} } }) }),
    });
    if (res.status !== 200) throw new Error(`wallet: the request_uri answered ${res.status}: ${await res.text()}`);
    const view = await readRequestObject(await res.text(), this.requestSignerRoot);
    if (view.claims.client_id !== params.get('client_id')) throw new Error('wallet: the request object names another client_id than the link');
    if (view.claims.wallet_nonce !== walletNonce) throw new Error('wallet: wallet_nonce not echoed');
    return view;
  }

  /**
   * The credential queries this wallet answers and what answers each: with `use`, that query alone; otherwise the
   * DCQL choice (dcql-choice.ts). A stored credential is preferred to a built-in one: for a query that accepts its
   * vct, and among a credential set's options, the first option the store answers wholly comes before an earlier one
   * the built-in test PID or mDL would answer (a wallet holding the service's own credential presents it, not a test PID).
   */
  plan(request: RequestView, use?: string): { query: DcqlCredential; held: Answering }[] {
    const dcql = request.claims.dcql_query as DcqlQuery;
    const answerer = (query: DcqlCredential): Answering | null => this.storedFor(query) ?? this.held.find((h) => h.kind === query.id) ?? null;
    if (use !== undefined) {
      const query = dcql.credentials.find((c) => c.id === use);
      const held = query ? answerer(query) : null;
      if (!query || !held) throw new Error('wallet: holds nothing the request asks for');
      return [{ query, held }];
    }
    return chooseAnswers(dcql, answerer, (source) => source.kind === 'stored').map(({ query, source }) => ({ query, held: source }));
  }

  /** The first credential query this wallet would answer, and what answers it. */
  choose(request: RequestView, use?: string): { query: DcqlCredential; held: Answering } {
    return this.plan(request, use)[0];
  }

  /** OpenID4VP 1.0 Appendix B.3: an SD-JWT VC query answered by the least used stored credential of an accepted vct that has the claims. */
  private storedFor(query: DcqlCredential): StoredChoice | null {
    if (!this.store || query.format !== 'dc+sd-jwt') return null;
    const accepted = query.meta.vct_values ?? [];
    const selections = new Map<string, string[]>();
    const stored = this.store.pickLeastUsed((c) => {
      if (c.format !== 'dc+sd-jwt' || !accepted.includes(c.vct)) return false;
      const paths = claimsToDisclose(query, (asked) => disclosuresFor(c.credential, asked) !== null);
      if (paths) selections.set(c.id, disclosuresFor(c.credential, paths)!);
      return paths !== null;
    });
    return stored ? { kind: 'stored', stored, selection: selections.get(stored.id)! } : null;
  }

  /** Reads the request, presents what it asks of one held credential, and posts the encrypted answer. */
  async answer(link: string, options: AnswerOptions = {}): Promise<WalletAnswer> {
    const request = await this.read(link);
    const vpToken = await this.presentations(request, options.use, options.bindTo);
    const encrypted = await encryptResponse(request, { vp_token: vpToken, state: request.claims.state });
    return this.post(request, options.form ? options.form(encrypted, request) : { response: encrypted });
  }

  async post(request: RequestView, form: Record<string, string>): Promise<WalletAnswer> {
    const res = await fetch(request.claims.response_uri as string, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown>, request };
  }

  async presentations(request: RequestView, use?: string, bindTo: AnswerOptions['bindTo'] = {}): Promise<Record<string, string[]>> {
    const nonce = bindTo.nonce ?? request.claims.nonce;
    const clientId = bindTo.clientId ?? request.claims.client_id;
    const vpToken: Record<string, string[]> = {};
    for (const { query, held } of this.plan(request, use)) {
      const paths = (query.claims ?? []).map((c) => c.path);
      if (held.kind === 'stored') {
        const holderKey = createPrivateKey({ key: held.stored.holderPrivateJwk as never, format: 'jwk' });
        vpToken[query.id] = [await presentSdJwt(held.stored.credential, { paths, selection: held.selection, holderKey, nonce, aud: clientId })];
        // The next presentation takes another credential of the batch: two presentations never share one (unlinkable).
        this.store!.markUsed(held.stored.id);
        continue;
      }
      if (held.kind === 'pid_sd_jwt') {
        vpToken[query.id] = [await presentSdJwt(held.credential, { paths, holderKey: held.holderKey, nonce, aud: clientId })];
        continue;
      }
      vpToken[query.id] = [
        await presentMdoc({
          mdoc: held.mdoc,
          docType: query.meta.doctype_value!,
          elements: paths.map(([ns, element]) => [String(ns), String(element)]),
          deviceKey: held.deviceKey,
          clientId,
          nonce,
          encryptionJwk: request.claims.client_metadata.jwks.keys[0],
          responseUri: bindTo.responseUri ?? request.claims.response_uri,
        }),
      ];
    }
    return vpToken;
  }
}
