/**
 * The merchant's side of one login, for the README's quickstart: a relying party on openid-client (the library the
 * end-to-end tests use as the merchant). It builds the authorization URL (code flow, PKCE S256, state, nonce),
 * prints it, waits for the browser's return to REDIRECT_URI (served here on localhost) or for that return address
 * pasted on stdin (when the browser cannot reach this machine), redeems the code and prints the ID token's claims
 * and the user-info answer.
 *
 *   CLIENT_ID=… CLIENT_SECRET=… node scripts/quickstart-rp.mjs
 *
 * ISSUER (default http://localhost:3000/oidc), REDIRECT_URI (default http://localhost:8400/callback, registered
 * with the merchant) and SCOPE (default "openid profile") may be set too.
 */
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';
import * as client from 'openid-client';

const issuer = process.env.ISSUER ?? 'http://localhost:3000/oidc';
const redirectUri = new URL(process.env.REDIRECT_URI ?? 'http://localhost:8400/callback');
const scope = process.env.SCOPE ?? 'openid profile';
const { CLIENT_ID: clientId, CLIENT_SECRET: clientSecret } = process.env;
if (!clientId || !clientSecret) {
  console.error('Set CLIENT_ID and CLIENT_SECRET (the admin API answer of POST /admin/v1/merchants).');
  process.exit(2);
}

// Plain http is allowed for a local service only (customer-test); a deployed broker is https.
const insecure = new URL(issuer).protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : undefined;
const config = await client.discovery(new URL(issuer), clientId, clientSecret, client.ClientSecretBasic(clientSecret), insecure);

const verifier = client.randomPKCECodeVerifier();
const state = client.randomState();
const nonce = client.randomNonce();
const authorizationUrl = client.buildAuthorizationUrl(config, {
  redirect_uri: redirectUri.href,
  scope,
  code_challenge: await client.calculatePKCECodeChallenge(verifier),
  code_challenge_method: 'S256',
  state,
  nonce,
});
console.log(`Open this address in a browser and sign in:\n\n  ${authorizationUrl.href}\n`);
console.log(`Waiting for the return to ${redirectUri.href} (or paste the address the browser was sent to, then Enter)`);

const callback = await new Promise((resolve) => {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', redirectUri);
    if (url.pathname !== redirectUri.pathname) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('Signed in: see the terminal.\n');
    finish(url);
  });
  server.on('error', (error) => console.error(`(not listening on ${redirectUri.host}: ${error.message}; paste the address instead)`));
  server.listen(Number(redirectUri.port || 80), redirectUri.hostname);
  const lines = createInterface({ input: process.stdin });
  lines.on('line', (line) => line.trim() && finish(new URL(line.trim())));
  function finish(url) {
    server.close();
    lines.close();
    resolve(url);
  }
});

const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
console.log('\nID token claims:');
console.log(JSON.stringify(tokens.claims(), null, 2));
// The broker answers user-info as a signed JWT; openid-client reads its claims after checking issuer and audience.
const userinfo = await client.fetchUserInfo(config, tokens.access_token, tokens.claims().sub);
console.log('\nUser-info:');
console.log(JSON.stringify(userinfo, null, 2));
process.exit(0);
