/**
 * oidc-provider warns once per process that it prefers Node 22; jest loads it afresh in every test file,
 * so the one known line would repeat two dozen times. Only that exact warning is dropped.
 *
 * The test upstream (test/support/upstream-provider.ts, an oidc-provider) fetches the broker's
 * /its/eid/jwks for private_key_jwt and encrypted ID tokens; under jest its own SSRF dispatcher cannot be
 * set up and it says so. The broker's engine never fetches by itself (request_uri and merchant jwks_uri go
 * through src/common/outbound/outbound-fetch.ts), so that line only ever comes from the test upstream.
 */
const KNOWN = ['oidc-provider WARNING: Unsupported runtime', 'oidc-provider WARNING: failed to setup SSRF protection for fetch'];
const warn = console.warn.bind(console);
console.warn = (...args: unknown[]) => {
  if (typeof args[0] === 'string' && KNOWN.some((known) => (args[0] as string).startsWith(known))) return;
  warn(...args);
};
