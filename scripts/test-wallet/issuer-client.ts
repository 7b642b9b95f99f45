/** The wallet's credentials, from a customer-test service's test issuer (POST /wallet/v1/test-credentials). */
import type { JWK } from 'jose';
import type { CredentialStore } from './credential-store.js';
import { newHolderKey, TestWallet, type HeldCredential } from './wallet.js';

const KINDS = ['pid_sd_jwt', 'pid_mdoc', 'mdl'] as const;

interface IssuedCredential {
  kind: (typeof KINDS)[number];
  credential: string;
  request_signer_root: string;
}

/**
 * A wallet holding one credential of each kind, each bound to a key of its own, issued by `service` (customer-test),
 * and the credentials of `store` (received over OpenID4VCI), if given.
 */
export async function walletFromService(service: string, store?: CredentialStore): Promise<TestWallet> {
  const held: HeldCredential[] = [];
  let root = '';
  for (const kind of KINDS) {
    const key = newHolderKey();
    const res = await fetch(`${service.replace(/\/$/, '')}/wallet/v1/test-credentials`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind, holder_key: key.publicJwk }),
    });
    if (res.status !== 200) throw new Error(`the service's test issuer answered ${res.status} (customer-test only): ${await res.text()}`);
    const issued = (await res.json()) as IssuedCredential;
    root = issued.request_signer_root;
    held.push(
      kind === 'pid_sd_jwt'
        ? { kind, credential: issued.credential, holderKey: key.privateKey }
        : { kind, mdoc: Buffer.from(issued.credential, 'base64url'), deviceKey: key.privateKey.export({ format: 'jwk' }) as JWK },
    );
  }
  return new TestWallet(Buffer.from(root, 'base64'), held, store);
}
