/**
 * The service behind a real nginx that terminates TLS and asks every client for a certificate (RFC 8705 through a
 * proxy): BASE_URL is the proxy's origin, and the service believes the certificate header from the proxy's address
 * alone. The certificates a bank's relying party would hold: one issued by the operator's trusted CA (tls_client_auth),
 * one of the same CA with another subject, and self-signed ones (self_signed_tls_client_auth).
 */
import { createPublicKey, X509Certificate, type KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestRoot, issueTestCrl, issueTestLeaf } from '@identity-broker/eu-wallet';
import * as client from 'openid-client';
import { newKeyAndCertificate } from '../../src/common/keys/self-signed.js';
import { freePort } from './free-port.js';
import { nginxInstalled, startNginxProxy, type NginxProxy } from './nginx-tls-proxy.js';
import { startTestApp, type TestApp } from './test-app.js';
import { tlsFetch, type TlsFetch } from './tls-fetch.js';

export const CERTIFICATE_HEADER = 'X-SSL-Client-Cert';
/** nginx reaches the service from this loopback alias; direct test requests come from 127.0.0.1. */
export const PROXY_ADDRESS = '127.0.0.2';
/** The subject DN of the bank's certificate, as RFC 4514 writes it (most specific first). */
export const BANK_SUBJECT_DN = 'CN=rp.bank.example,O=Example Bank,C=NO';

export interface ClientCertificate {
  keyPem: string;
  certificatePem: string;
}

export interface MtlsSetup {
  t: TestApp;
  /** The service itself (plain http, not through the proxy): the admin API, and the tests of a forged header. */
  directUrl: string;
  /** Undefined when nginx is not installed (the tests that need it skip). */
  proxy?: NginxProxy;
  proxyCertificatePem: string;
  bank: ClientCertificate;
  sameCaOtherSubject: ClientCertificate;
  selfSigned: ClientCertificate;
  otherSelfSigned: ClientCertificate;
  /** A fetch over TLS to the proxy presenting `certificate` (none: no certificate); closed by close(). */
  fetchWith(certificate?: ClientCertificate): typeof fetch;
  close(): Promise<void>;
}

const pemOf = (der: Uint8Array) => new X509Certificate(der).toString();
const keyPemOf = (key: KeyObject) => key.export({ type: 'pkcs8', format: 'pem' }).toString();

/** The client certificates of the trusted CA, by their name in MtlsSetup. */
export type CaIssuedCertificate = 'bank' | 'sameCaOtherSubject';

export interface MtlsSetupOptions {
  /** With CLIENT_CERT_CRL_FILE: a current CRL of the trusted CA listing these certificates as revoked (none: an empty CRL). */
  crlRevoking?: CaIssuedCertificate[];
}

export async function startMtlsSetup(options: MtlsSetupOptions = {}): Promise<MtlsSetup> {
  const dates = { notBefore: new Date(Date.now() - 60_000), notAfter: new Date(Date.now() + 86_400_000) };
  const ca = await createTestRoot({ ...dates, commonName: 'Test Client CA', organisation: 'Test Operator', country: 'NO' });
  const leaf = async (commonName: string) => {
    const issued = await issueTestLeaf(ca, { ...dates, commonName, organisation: 'Example Bank', country: 'NO' });
    return { keyPem: keyPemOf(issued.privateKey), certificatePem: pemOf(issued.der) };
  };
  const selfSignedOf = async (cn: string) => {
    const made = await newKeyAndCertificate(`CN=${cn}`, 1);
    return { keyPem: made.privateKeyPem, certificatePem: made.certificatePem };
  };
  const [bank, sameCaOtherSubject, selfSigned, otherSelfSigned, proxyCertificate] = await Promise.all([
    leaf('rp.bank.example'),
    leaf('rp.other-bank.example'),
    selfSignedOf('rp.shop.example'),
    selfSignedOf('rp.shop.example'),
    newKeyAndCertificate('CN=localhost', 1),
  ]);
  const dir = mkdtempSync(join(tmpdir(), 'mtls-ca-'));
  writeFileSync(join(dir, 'client-ca.pem'), pemOf(ca.der));
  if (options.crlRevoking) {
    const issued = { bank, sameCaOtherSubject };
    const revoked = options.crlRevoking.map((name) => new Uint8Array(new X509Certificate(issued[name].certificatePem).raw));
    writeFileSync(join(dir, 'client-ca.crl'), await issueTestCrl(ca, { revoked }));
  }
  const proxyPort = await freePort();
  const t = await startTestApp({
    env: {
      BASE_URL: `https://127.0.0.1:${proxyPort}`,
      TRUST_PROXY: 'true',
      CLIENT_CERT_HEADER: CERTIFICATE_HEADER,
      CLIENT_CERT_PROXIES: PROXY_ADDRESS,
      CLIENT_CERT_CA_FILE: join(dir, 'client-ca.pem'),
      ...(options.crlRevoking && { CLIENT_CERT_CRL_FILE: join(dir, 'client-ca.crl') }),
    },
  });
  const directUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  const proxy = nginxInstalled
    ? await startNginxProxy({
        upstream: directUrl,
        serverKeyPem: proxyCertificate.privateKeyPem,
        serverCertificatePem: proxyCertificate.certificatePem,
        certificateHeader: CERTIFICATE_HEADER,
        bindAddress: PROXY_ADDRESS,
        port: proxyPort,
      })
    : undefined;
  const opened: TlsFetch[] = [];
  return {
    t,
    directUrl,
    proxy,
    proxyCertificatePem: proxyCertificate.certificatePem,
    bank,
    sameCaOtherSubject,
    selfSigned,
    otherSelfSigned,
    fetchWith(certificate) {
      const made = tlsFetch({ ca: proxyCertificate.certificatePem, key: certificate?.keyPem, cert: certificate?.certificatePem });
      opened.push(made);
      return made.fetch;
    },
    async close() {
      for (const made of opened) made.close();
      await proxy?.close();
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** RFC 8705 §2.2: the self-signed certificate registered as a key of the merchant's set (x5c carries it). */
export function certificateJwk(certificate: ClientCertificate): Record<string, unknown> {
  const x509 = new X509Certificate(certificate.certificatePem);
  return { ...createPublicKey(certificate.certificatePem).export({ format: 'jwk' }), kid: 'tls', x5c: [x509.raw.toString('base64')] };
}

/** The merchant as openid-client sees it: discovery through the proxy, tls_client_auth over `fetchImpl`. */
export async function mtlsClient(setup: MtlsSetup, clientId: string, fetchImpl: typeof fetch): Promise<client.Configuration> {
  return client.discovery(new URL(`${setup.t.baseUrl}/oidc`), clientId, { tls_client_certificate_bound_access_tokens: true }, client.TlsClientAuth(), {
    [client.customFetch]: fetchImpl,
  });
}
