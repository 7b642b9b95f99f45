// Every eID scheme of the service, one line each: the only place outside a scheme's folder that names it
// (docs/architecture.md, "Adding a scheme"). The core collects the manifests through src/bootstrap/scheme-manifests.ts.
export { manifest as documentVerifier } from './document-verifier/document-verifier.manifest.js';
export { manifest as testEid } from './test-eid/test-eid.manifest.js';
export { manifest as upstreamOidc } from './upstream-oidc/upstream-oidc.manifest.js';
export { manifest as euWallet } from './eu-wallet/eu-wallet.manifest.js';
