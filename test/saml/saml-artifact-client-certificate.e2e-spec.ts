import { request } from 'node:https';
import { adminClient } from '../support/admin-client.js';
import { itWithNginx, nginxInstalled, startNginxProxy, type NginxProxy } from '../support/nginx-tls-proxy.js';
import { REDIRECT_URI } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { newKeyAndCertificate, type KeyAndCertificate } from '../../src/common/keys/self-signed.js';
import { artifactRequestSoap, postSoap, responseOf, SAML_ARTIFACT_RECEIVER, samlArtifactLoginWithTestEid, type SoapAnswer } from './saml-artifact-flow.js';
import { attributesOf } from './saml-flow.js';

const HEADER = 'X-SSL-Client-Cert';
/** nginx reaches the service from this loopback alias; direct test requests come from 127.0.0.1. */
const PROXY_ADDRESS = '127.0.0.2';
const DENIED = '<samlp:StatusCode Value="samlp:Requester"><samlp:StatusCode Value="samlp:RequestDenied"/></samlp:StatusCode>';
const SUCCESS = '<samlp:StatusCode Value="samlp:Success"/>';

/** A merchant's SP resolving an artifact over TLS through the proxy, with its client certificate or none. */
function postSoapOverTls(
  origin: string,
  body: string,
  proxyCa: string,
  client?: KeyAndCertificate,
  basic?: { client_id: string; client_secret: string },
): Promise<SoapAnswer> {
  const headers: Record<string, string> = { 'content-type': 'text/xml; charset=utf-8', soapaction: 'http://www.oasis-open.org/committees/security' };
  if (basic) headers.authorization = `Basic ${Buffer.from(`${basic.client_id}:${basic.client_secret}`).toString('base64')}`;
  return new Promise((resolve, reject) => {
    const req = request(
      `${origin}/saml/artifact`,
      { method: 'POST', headers, ca: proxyCa, servername: 'localhost', key: client?.privateKeyPem, cert: client?.certificatePem, agent: false },
      (res) => {
        let text = '';
        res
          .setEncoding('utf8')
          .on('data', (chunk: string) => (text += chunk))
          .on('end', () => resolve({ status: res.statusCode ?? 0, contentType: res.headers['content-type'] ?? '', body: text }));
      },
    );
    req.once('error', reject).end(body);
  });
}

describe('SAML artifact resolution authenticated by the TLS client certificate a trusted proxy (nginx) passes on', () => {
  let t: TestApp;
  let proxy: NginxProxy;
  let proxyCertificate: KeyAndCertificate;
  let shopCertificate: KeyAndCertificate;
  let strangerCertificate: KeyAndCertificate;
  let shop: { client_id: string; client_secret: string };
  let basicOnly: { client_id: string; client_secret: string };

  beforeAll(async () => {
    t = await startTestApp({ env: { CLIENT_CERT_HEADER: HEADER, CLIENT_CERT_PROXIES: `${PROXY_ADDRESS},::1/128` } });
    [proxyCertificate, shopCertificate, strangerCertificate] = await Promise.all(
      ['localhost', 'sp.shop.example', 'sp.stranger.example'].map((cn) => newKeyAndCertificate(`CN=${cn}`, 1)),
    );
    const admin = adminClient(t.baseUrl, t.adminToken);
    shop = await admin.createMerchant({
      name: 'Certificate shop',
      redirect_uris: [REDIRECT_URI],
      saml: {
        entity_id: 'https://shop.example/sp',
        artifact_receiver_url: SAML_ARTIFACT_RECEIVER,
        certificate: shopCertificate.certificatePem,
        scope: 'openid profile',
      },
    });
    basicOnly = await admin.createMerchant({
      name: 'Basic shop',
      redirect_uris: [REDIRECT_URI],
      saml: { entity_id: 'https://basic.example/sp', artifact_receiver_url: SAML_ARTIFACT_RECEIVER },
    });
    if (nginxInstalled)
      proxy = await startNginxProxy({
        upstream: t.baseUrl,
        serverKeyPem: proxyCertificate.privateKeyPem,
        serverCertificatePem: proxyCertificate.certificatePem,
        certificateHeader: HEADER,
        bindAddress: PROXY_ADDRESS,
      });
  });
  afterAll(async () => {
    await proxy?.close();
    await t?.close();
  });

  const artifactFor = async (merchant: { client_id: string }) => (await samlArtifactLoginWithTestEid(t.baseUrl, { mid: merchant.client_id })).artifact;

  itWithNginx('resolves the artifact for the merchant whose registered certificate the SP presented, without HTTP Basic', async () => {
    const { soap, requestId } = artifactRequestSoap(await artifactFor(shop));
    const answer = await postSoapOverTls(proxy.origin, soap, proxyCertificate.certificatePem, shopCertificate);
    expect(answer.status).toBe(200);
    const response = responseOf(answer.body);
    expect(response).toContain(SUCCESS);
    expect(response).toContain(`InResponseTo="${requestId}"`);
    expect(attributesOf(response)).toMatchObject({ AUTHENTICATION_RESULT: 'pass' });
  });

  itWithNginx("refuses another certificate as it refuses an artifact (RequestDenied), and the artifact stays its merchant's", async () => {
    const artifact = await artifactFor(shop);
    const stranger = await postSoapOverTls(proxy.origin, artifactRequestSoap(artifact).soap, proxyCertificate.certificatePem, strangerCertificate);
    expect(stranger.status).toBe(200);
    expect(responseOf(stranger.body)).toContain(DENIED);
    expect(stranger.body).not.toContain('saml:Assertion');
    // A merchant without a registered certificate cannot be one by certificate either.
    const ofBasicShop = await postSoapOverTls(
      proxy.origin,
      artifactRequestSoap(await artifactFor(basicOnly)).soap,
      proxyCertificate.certificatePem,
      strangerCertificate,
    );
    expect(responseOf(ofBasicShop.body)).toContain(DENIED);
    const owner = await postSoapOverTls(proxy.origin, artifactRequestSoap(artifact).soap, proxyCertificate.certificatePem, shopCertificate);
    expect(responseOf(owner.body)).toContain(SUCCESS);
  });

  itWithNginx('answers 401 through the proxy when the SP presents no certificate and no Basic credentials; Basic still works there', async () => {
    const artifact = await artifactFor(shop);
    const bare = await postSoapOverTls(proxy.origin, artifactRequestSoap(artifact).soap, proxyCertificate.certificatePem);
    expect(bare.status).toBe(401);
    expect(bare.body).toContain('saml_invalid_client');
    const basic = await postSoapOverTls(proxy.origin, artifactRequestSoap(artifact).soap, proxyCertificate.certificatePem, undefined, shop);
    expect(responseOf(basic.body)).toContain(SUCCESS);
  });

  it('ignores the header from an address that is not a trusted proxy: a client cannot name a certificate it does not hold', async () => {
    const artifact = await artifactFor(shop);
    const forged = await fetch(`${t.baseUrl}/saml/artifact`, {
      method: 'POST',
      headers: { 'content-type': 'text/xml', [HEADER]: encodeURIComponent(shopCertificate.certificatePem) },
      body: artifactRequestSoap(artifact).soap,
    });
    expect(forged.status).toBe(401);
    expect(await forged.text()).not.toContain('saml:Assertion');
    // Not used up: the merchant still resolves it with Basic.
    expect(responseOf((await postSoap(t.baseUrl, artifactRequestSoap(artifact).soap, shop)).body)).toContain(SUCCESS);
  });
});
