/**
 * A running service with the EU wallet scheme, a merchant that uses it, and a test wallet holding credentials issued
 * by customer-test's wallet PKI: a PID as SD-JWT VC (with a status list entry), a PID as mdoc and an mDL. The status
 * list is served by this test on loopback (customer-test fetches loopback), with a revoked and a suspended entry.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPairSync } from 'node:crypto';
import type * as client from 'openid-client';
import { createStatusList, fullDate, issueSdJwtVc, issueTestMdoc, SPECIMEN_PID_CLAIMS } from '@identity-broker/eu-wallet';
import { WalletTestAuthoritiesService, type WalletTestAuthorities } from '../../../src/schemes/eu-wallet/trust/wallet-test-authorities.service.js';
import { adminClient } from '../admin-client.js';
import { discover, REDIRECT_URI } from '../oidc-flow.js';
import { startTestApp, type TestApp } from '../test-app.js';
import { newHolderKey, TestWallet } from '../../../scripts/test-wallet/wallet.js';

export interface WalletWorld {
  t: TestApp;
  merchant: client.Configuration;
  wallet: TestWallet;
  authorities: WalletTestAuthorities;
  /** The served status list (2 bits a status): index 0 valid (the held PID's), 1 revoked, 2 suspended. */
  statusUri: string;
  close(): Promise<void>;
}

/** `env`: more of the service's variables (trust lists of the test's own issuers, WALLET_TRUST_CRLS). */
export async function walletWorld(scope = 'openid profile ageverify18 ageverify21', env: Record<string, string> = {}): Promise<WalletWorld> {
  const t = await startTestApp({ env: { LOG_LEVEL: process.env.WALLET_DEBUG ? 'error' : 'silent', ...env } });
  const authorities = await t.app.get(WalletTestAuthoritiesService).get();
  const statuses = [0, 1, 2, 0, 0, 0, 0, 0];
  const server: Server = createServer((_req, res) => {
    const uri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/status/1`;
    res
      .writeHead(200, { 'content-type': 'application/statuslist+jwt' })
      .end(createStatusList({ signer: authorities.pidProvider, uri, bits: 2, values: statuses, ttl: 1 }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const statusUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/status/1`;

  const holder = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const pidKey = newHolderKey();
  const mdlKey = newHolderKey();
  const pidSdJwt = await issueSdJwtVc({
    signer: authorities.pidProvider,
    holderKey: holder.publicKey,
    claims: { ...SPECIMEN_PID_CLAIMS, issuing_country: 'AT' },
    status: { uri: statusUri, idx: 0 },
  });
  const pidMdoc = await issueTestMdoc({
    docType: 'eu.europa.ec.eudi.pid.1',
    namespaces: {
      'eu.europa.ec.eudi.pid.1': {
        family_name: 'Mustermann',
        given_name: 'Erika',
        birth_date: fullDate('1964-08-12'),
        nationality: ['DE'],
        age_over_18: true,
        age_over_21: true,
        issuing_country: 'DE',
      },
    },
    signer: authorities.pidProvider,
    deviceKey: pidKey.publicJwk,
  });
  const mdl = await issueTestMdoc({
    docType: 'org.iso.18013.5.1.mDL',
    namespaces: {
      'org.iso.18013.5.1': {
        family_name: 'Svensson',
        given_name: 'Anna',
        birth_date: fullDate('1990-02-03'),
        issuing_country: 'UT',
        document_number: 'UT1234567',
        age_over_18: true,
        age_over_21: true,
      },
    },
    signer: authorities.iaca,
    deviceKey: mdlKey.publicJwk,
  });
  const wallet = new TestWallet(authorities.requestSigner.root, [
    { kind: 'pid_sd_jwt', credential: pidSdJwt, holderKey: holder.privateKey },
    { kind: 'pid_mdoc', mdoc: pidMdoc, deviceKey: pidKey.privateKey.export({ format: 'jwk' }) as never },
    { kind: 'mdl', mdoc: mdl, deviceKey: mdlKey.privateKey.export({ format: 'jwk' }) as never },
  ]);
  const m = await adminClient(t.baseUrl, t.adminToken).createMerchant({
    name: 'Wallet shop',
    redirect_uris: [REDIRECT_URI],
    eid_schemes: ['eu-wallet'],
    scope,
  });
  const merchant = await discover(`${t.baseUrl}/oidc`, m.client_id, m.client_secret);
  return {
    t,
    merchant,
    wallet,
    authorities,
    statusUri,
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      await t.close();
    },
  };
}
