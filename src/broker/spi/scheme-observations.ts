import type { TrustStore } from '@identity-broker/icao9303';
import { extensionPoint } from '../../common/discovery/discovered.js';

/** A certificate as PEM text or DER bytes, as its owner keeps it. */
export type HeldCertificate = string | Uint8Array;

/** Certificates a scheme holds whose end the operator watches, by purpose (`broker_certificate_not_after_seconds`). */
export interface ExpiringCertificates {
  purpose: string;
  read(): Promise<HeldCertificate[]>;
}

/**
 * What operations observe of a scheme (docs/operations.md), each part optional: the certificates it holds, the
 * document trust store it checks chips against (the CSCA and CRL expiry series), a readiness check it warms up at
 * start (the instance is ready once it passed), and the memory and replacements of its worker threads.
 */
export interface SchemeObservations {
  expiringCertificates?(): ExpiringCertificates[];
  documentTrustStore?(): Promise<TrustStore>;
  readiness?: { check: string; warmUp(): Promise<void> };
  /** Worker threads' own memory (bytes, by thread index) after their last call, as the gauge `name` (`broker_<what>_worker_memory_bytes`). */
  workerMemory?: { name: string; help: string; threadHeapBytes(): number[] | undefined };
  /** Worker threads it replaced, by reason, as the counter `name`; `onRecycle` hands it each replacement's reason. */
  workerRecycles?: { name: string; help: string; reasons: readonly string[]; onRecycle(count: (reason: string) => void): void };
}

/** Marks a scheme's provider of SchemeObservations; operations (src/ops) collect every one at start. */
export const ObservedScheme = extensionPoint();
