import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { RevocationChecker } from '@identity-broker/eu-wallet';
import { readCertificates } from '../../../common/crypto/certificate-files.js';
import { APP_CONFIG, type AppConfig } from '../../../config/load-config.js';
import { WalletTestAuthoritiesService } from './wallet-test-authorities.service.js';
import { walletRevocation } from './wallet-revocation.js';
import { walletConfig } from '../config/wallet-config.js';

/** The service's request signer: the key, and the chain every request object carries in `x5c` (signer first). */
export interface RequestSigner {
  chain: Uint8Array[];
  privateKey: KeyObject;
}

/** Who the scheme trusts for what: PID providers (at substantial and at high) and mDL IACAs, as DER roots. */
export interface WalletAnchors {
  pid: Uint8Array[];
  pidHigh: Uint8Array[];
  mdl: Uint8Array[];
  /** The subjects of pidHigh, as the libraries name a chain's anchor: read once, not per presentation. */
  pidHighSubjects: ReadonlySet<string>;
  /**
   * SHA-256 fingerprints (X509Certificate.fingerprint256) of customer-test's generated roots (its test PID provider and
   * test IACA): a credential chaining to one is a test credential (verified_claims). Empty in production.
   */
  testAnchors: ReadonlySet<string>;
}

/**
 * The scheme's keys, trust lists and revocation check, read once: in production from the configured files
 * (WALLET_REQUEST_*, WALLET_*_ANCHORS, WALLET_TRUST_CRLS); in customer-test the configured ones plus the generated test authorities, whose PID provider
 * is trusted at level high so that a merchant can try acr high. Without a signer the module is not loaded (AppModule).
 */
@Injectable()
export class WalletTrustService implements OnModuleInit {
  private loaded?: Promise<{ signer?: RequestSigner; anchors: WalletAnchors; revocation: RevocationChecker }>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly testAuthorities: WalletTestAuthoritiesService,
  ) {}

  /** Production reads its files at start, so a bad one stops the start with its name (customer-test on first use). */
  async onModuleInit(): Promise<void> {
    if (this.config.isProduction) await this.load();
  }

  async signer(): Promise<RequestSigner> {
    const { signer } = await this.load();
    if (!signer) throw new Error('the wallet scheme has no request signer (WALLET_REQUEST_KEY_FILE)');
    return signer;
  }

  async anchors(): Promise<WalletAnchors> {
    return (await this.load()).anchors;
  }

  /** CRL checks of the issuers' chains (one checker, so one CRL cache, for every credential kind and status list). */
  async revocation(): Promise<RevocationChecker> {
    return (await this.load()).revocation;
  }

  private load() {
    this.loaded ??= (async () => {
      const { requestSigner, anchors } = walletConfig(this.config);
      const configured = { pid: anchors.pid.flatMap(trustList), pidHigh: anchors.pidHigh.flatMap(trustList), mdl: anchors.mdl.flatMap(trustList) };
      const fromFiles = requestSigner && {
        chain: readCertificates(requestSigner.chainFile, 'wallet request signer'),
        privateKey: createPrivateKey(readFileSync(requestSigner.keyFile)),
      };
      const revocation = walletRevocation(this.config);
      if (this.config.isProduction) return { signer: fromFiles, anchors: withSubjects(configured, []), revocation };
      const test = await this.testAuthorities.get();
      const testRoots = [test.pidProvider.root, test.iaca.root];
      return {
        signer: fromFiles ?? { chain: test.requestSigner.chain, privateKey: test.requestSigner.privateKey },
        anchors: withSubjects(
          { pid: configured.pid, pidHigh: [...configured.pidHigh, test.pidProvider.root], mdl: [...configured.mdl, test.iaca.root] },
          testRoots,
        ),
        revocation,
      };
    })();
    return this.loaded;
  }
}

const withSubjects = (a: Omit<WalletAnchors, 'pidHighSubjects' | 'testAnchors'>, testRoots: Uint8Array[]): WalletAnchors => ({
  ...a,
  pidHighSubjects: new Set(a.pidHigh.map((der) => new X509Certificate(der).subject.replace(/\n/g, ', '))),
  testAnchors: new Set(testRoots.map((der) => new X509Certificate(der).fingerprint256)),
});

const trustList = (path: string) => readCertificates(path, 'wallet trust list');
