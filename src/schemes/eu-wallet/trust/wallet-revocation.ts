import { RevocationChecker } from '@identity-broker/eu-wallet';
import { logger } from '../../../common/logging/logger.js';
import { outboundGet } from '../../../common/outbound/outbound-fetch.js';
import type { AppConfig } from '../../../config/load-config.js';
import { readWalletCrls } from '../config/wallet-crls.js';
import { walletConfig } from '../config/wallet-config.js';

/** An IACA's or a PID provider's CRL is a few KiB to a few hundred; 4 MiB leaves room and bounds a hostile answer. */
const MAX_CRL_BYTES = 4 * 1024 * 1024;
const TIMEOUT_MS = 5000;

/**
 * The wallet scheme's revocation check of issuers' certificates (docs/eu-wallet.md, "Trust and revocation"): the
 * configured CRLs (WALLET_TRUST_CRLS) and those the certificates name, fetched through the address-checking agent
 * (private and reserved addresses refused at connect time; loopback only in customer-test). Plain http is fetched in
 * production too: a CRL is signed by its CA and RFC 5280 §4.2.1.13 expects http distribution points (an https one
 * would need the revocation status of its own TLS certificate). production refuses a certificate whose status cannot
 * be established; customer-test accepts it and logs a warning that names the certificates (issuers, never a person).
 */
export function walletRevocation(config: AppConfig): RevocationChecker {
  const allowLoopback = !config.isProduction;
  return new RevocationChecker({
    crls: readWalletCrls(walletConfig(config).trustCrls ?? []),
    fetchCrl: async (url) => {
      const res = await outboundGet(new URL(url), { allowLoopback }, { maxBytes: MAX_CRL_BYTES, timeoutMs: TIMEOUT_MS, accept: 'application/pkix-crl' });
      if (res.status !== 200) throw new Error(`it answered ${res.status}`);
      return new Uint8Array(res.body);
    },
    whenUnavailable: config.isProduction ? 'refuse' : 'warn',
    warn: ({ certificate, reasons }) =>
      logger.warn({ certificate, reasons }, 'wallet trust: certificate accepted without its revocation status (customer-test only)'),
  });
}
