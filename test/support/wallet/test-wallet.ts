/**
 * A test wallet for the EU wallet scheme's end-to-end tests, built only from holder-side code: jose for the request
 * object, the JWE and the key-binding JWT, @meeco/sd-jwt to choose disclosures, @auth0/mdl for mdoc presentations,
 * and its own session transcript (holder-transcript.ts). It holds a PID as SD-JWT VC, a PID as mdoc and an mDL, takes
 * the wallet link the broker page shows, and answers with only the claims the DCQL query asks for.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { JWK } from 'jose';
import { present } from '../../eu-wallet/sd-jwt-holder.js';
import { walletEncrypts, walletReadsRequest, type WalletView } from '../../eu-wallet/support/jose-wallet.js';
import { holderSessionTranscript, taggedTranscript } from './holder-transcript.js';

export type HeldCredential = { kind: 'pid_sd_jwt'; credential: string; holderKey: KeyObject } | { kind: 'pid_mdoc' | 'mdl'; mdoc: Uint8Array; deviceKey: JWK };

interface DcqlCredential {
  id: string;
  format: string;
  meta: { doctype_value?: string };
  claims?: { path: (string | number | null)[] }[];
}

/**
 * A DCQL claims path as @meeco/sd-jwt's JSONPaths: `['a', 'b']` is `$.a.b`; `['a', null]` is every element of array
 * `a`, whose length the holder reads from the array's own disclosure ([salt, name, [{"...": digest}, …]]).
 */
function sdJwtPaths(credential: string, path: (string | number | null)[]): string[] {
  if (path[path.length - 1] !== null) return [`$.${path.map((p) => (typeof p === 'number' ? `[${p}]` : p)).join('.').replace(/\.\[/g, '[')}`];
  const name = path[0] as string;
  const disclosures = credential.split('~').slice(1).filter(Boolean).map((d) => JSON.parse(Buffer.from(d, 'base64url').toString('utf8')) as unknown[]);
  const array = disclosures.find((d) => d.length === 3 && d[1] === name && Array.isArray(d[2]))?.[2] as unknown[] | undefined;
  return (array ?? []).map((_, i) => `$.${name}[${i}]`);
}

export interface WalletAnswer {
  status: number;
  body: Record<string, unknown>;
  /** What the wallet asked and saw, for tests that check the request itself. */
  request: WalletView;
}

export interface AnswerOptions {
  /** Which held credential answers (its DCQL id); default: the first the query offers that the wallet holds. */
  use?: string;
  /** Changes the vp_token before it is encrypted (attacks). */
  tamper?: (vpToken: Record<string, string[]>, request: WalletView) => Record<string, unknown>;
  /** Send this form instead of the encrypted answer (attacks). */
  form?: (encrypted: string, request: WalletView) => Record<string, string>;
  /** Bind the presentation to another request than the one read (attacks): its nonce, client_id or response_uri. */
  bindTo?: { nonce?: string; clientId?: string; responseUri?: string };
}

export const newDeviceKey = () => {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { privateKey, publicJwk: privateKey.export({ format: 'jwk' }) as JWK };
};

export class TestWallet {
  constructor(
    /** The root the wallet trusts for request signers (customer-test's relying party CA). */
    private readonly requestSignerRoot: Uint8Array,
    private readonly held: HeldCredential[],
  ) {}

  /** Takes a wallet link (`openid4vp://?client_id=…&request_uri=…&request_uri_method=post`), fetches and reads the request. */
  async read(link: string, walletNonce = 'wallet-nonce-0123456789'): Promise<WalletView> {
    const params = new URL(link).searchParams;
    if (params.get('request_uri_method') !== 'post') throw new Error('wallet: expected request_uri_method=post');
    const res = await fetch(params.get('request_uri')!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/oauth-authz-req+jwt' },
      body: new URLSearchParams({ wallet_nonce: walletNonce, wallet_metadata: JSON.stringify({ vp_formats_supported: { 'dc+sd-jwt': {}, mso_mdoc: {} } }) }),
    });
    if (res.status !== 200) throw new Error(`wallet: the request_uri answered ${res.status}: ${await res.text()}`);
    const view = await walletReadsRequest(await res.text(), this.requestSignerRoot);
    if (view.claims.client_id !== params.get('client_id')) throw new Error('wallet: the request object names another client_id than the link');
    if (view.claims.wallet_nonce !== walletNonce) throw new Error('wallet: wallet_nonce not echoed');
    return view;
  }

  /** Reads the request, presents what it asks of one held credential, and posts the encrypted answer. */
  async answer(link: string, options: AnswerOptions = {}): Promise<WalletAnswer> {
    const request = await this.read(link);
    const vpToken = await this.presentations(request, options.use, options.bindTo);
    const payload = { vp_token: options.tamper ? options.tamper(vpToken, request) : vpToken, state: request.claims.state };
    const encrypted = await walletEncrypts(request, payload);
    return this.post(request, options.form ? options.form(encrypted, request) : { response: encrypted });
  }

  async post(request: WalletView, form: Record<string, string>): Promise<WalletAnswer> {
    const res = await fetch(request.claims.response_uri as string, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown>, request };
  }

  async presentations(request: WalletView, use?: string, bindTo: AnswerOptions['bindTo'] = {}): Promise<Record<string, string[]>> {
    const nonce = bindTo.nonce ?? request.claims.nonce;
    const clientId = bindTo.clientId ?? request.claims.client_id;
    const asked = request.claims.dcql_query.credentials as DcqlCredential[];
    const query = asked.find((c) => (use ? c.id === use : this.held.some((h) => h.kind === c.id)));
    const held = this.held.find((h) => h.kind === query?.id);
    if (!query || !held) throw new Error('wallet: holds nothing the request asks for');
    const paths = (query.claims ?? []).map((c) => c.path);
    if (held.kind === 'pid_sd_jwt') {
      const jsonPaths = paths.flatMap((p) => sdJwtPaths(held.credential, p));
      return { [query.id]: [await present(held.credential, { paths: jsonPaths, holderKey: held.holderKey, nonce, aud: clientId })] };
    }
    const transcript = await holderSessionTranscript({
      clientId,
      nonce,
      encryptionJwk: request.claims.client_metadata.jwks.keys[0],
      responseUri: bindTo.responseUri ?? request.claims.response_uri,
    });
    const docType = query.meta.doctype_value!;
    const elements = paths.map(([ns, element]) => [ns, element] as [string, string]);
    const definition = {
      id: 'wallet',
      input_descriptors: [
        {
          id: docType,
          format: { mso_mdoc: { alg: ['ES256'] } },
          constraints: { limit_disclosure: 'required', fields: elements.map(([ns, element]) => ({ path: [`$['${ns}']['${element}']`], intent_to_retain: false })) },
        },
      ],
    };
    // Loaded on first use: see holder-transcript.ts (CommonJS requiring an ES module beside the service).
    const { DeviceResponse } = await import('@auth0/mdl');
    const response = await DeviceResponse.from(held.mdoc)
      .usingPresentationDefinition(definition)
      .usingSessionTranscriptBytes(await taggedTranscript(transcript))
      .authenticateWithSignature(held.deviceKey as never, 'ES256')
      .sign();
    return { [query.id]: [Buffer.from(response.encode()).toString('base64url')] };
  }
}
