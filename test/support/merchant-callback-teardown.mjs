/** Jest's globalTeardown: closes the test merchants' web server (merchant-callback-setup.mjs). */
export default async function stopMerchantCallbackServer() {
  for (const server of globalThis.__merchantCallbackServers ?? []) {
    server.closeAllConnections();
    server.close();
  }
}
