import type { ModuleRef } from '@nestjs/core';
import { createHash, X509Certificate } from 'node:crypto';
import { Gauge, type Registry } from 'prom-client';
import { toHex, type DocumentCertificate, type TrustStore } from '@identity-broker/icao9303';
import { PadesSignerService } from '../../auth-files/signing/pades-signer.service.js';
import { IssuerKeysService } from '../../credential-issuer/keys/issuer-keys.service.js';
import { SamlKeysService } from '../../saml/keys/saml-keys.service.js';
import type { HeldCertificate } from '../../broker/spi/scheme-observations.js';
import type { ObservedSchemes } from '../observed-schemes.js';

type Held = HeldCertificate;

interface CertificateFacts {
  subject: string;
  /** the first 16 hex digits of the SHA-256 of the DER */
  sha256: string;
  notAfter: number;
}

interface TrustFacts {
  /** per country, the trusted CSCA that stays valid longest */
  csca: { country: string; keyId: string; notAfter: number }[];
  /** per signing CSCA key, the latest nextUpdate of its CRLs */
  crls: { country: string; keyId: string; nextUpdate: number }[];
}

const seconds = (d: Date | string) => Math.floor(new Date(d).getTime() / 1000);

/** How long a scrape waits for one owner of certificates (its first load may build a trust store or reach the database). */
const SOURCE_TIMEOUT_MS = 1500;

/** The promise's value, or `fallback` when it fails or has not settled within `ms` (the work itself goes on). */
export async function within<T, F>(ms: number, work: Promise<T>, fallback: F): Promise<T | F> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<F>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
    timer.unref();
  });
  try {
    return await Promise.race([work.catch(() => fallback), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The expiry series (docs/operations.md, "Metrics"): the end of every certificate the service signs with or
 * hands out (the core's and the running schemes': SchemeObservations.expiringCertificates), the newest CSCA of each
 * country a scheme's document trust store holds (the document verifier's), and the nextUpdate of its CRLs.
 * Read at scrape time from what the owning services hold (each loads once and keeps it); the parsed dates are
 * kept per certificate object and per trust store, so a scrape parses nothing it has seen before.
 */
export function registerExpiryGauges(registry: Registry, moduleRef: ModuleRef, schemes: ObservedSchemes): void {
  const get = <T>(type: abstract new (...args: never[]) => T): T | undefined => {
    try {
      return moduleRef.get(type as never, { strict: false }) as T;
    } catch {
      return undefined; // the module is not loaded in this deployment (the credential issuer)
    }
  };

  // One source failing or slow (a trust list that cannot be read, a database that does not answer) leaves out its
  // series only: the scrape answers within SOURCE_TIMEOUT_MS with every other series, the readiness and database
  // gauges above all, which matter most while the database is down.
  const held = async (purpose: string, read: () => Promise<Held[]> | undefined): Promise<{ purpose: string; certificates: Held[] }> => ({
    purpose,
    certificates: await within(SOURCE_TIMEOUT_MS, Promise.resolve().then(read), undefined).then((c) => c ?? []),
  });

  new Gauge({
    name: 'broker_certificate_not_after_seconds',
    help: 'End of validity (notAfter, Unix seconds) of each certificate the service signs with or hands out, by purpose, subject and the first 16 hex digits of its SHA-256 fingerprint',
    labelNames: ['purpose', 'subject', 'sha256'] as const,
    registers: [registry],
    async collect() {
      const saml = get(SamlKeysService);
      const pades = get(PadesSignerService);
      const issuer = get(IssuerKeysService);
      const sources = await Promise.all([
        held('saml_signing', () => saml?.certificatePem().then((pem) => [pem])),
        held('pades_signing', () => pades?.current().then((s) => s?.chain ?? [])),
        held('credential_issuer_signing', () => issuer?.current().then((s) => s.chain)),
        held('credential_issuer_anchor', () => issuer?.anchors()),
        ...schemes
          .all()
          .flatMap((scheme) => scheme.expiringCertificates?.() ?? [])
          .map(({ purpose, read }) => held(purpose, read)),
      ]);
      this.reset();
      for (const { purpose, certificates } of sources)
        for (const certificate of certificates) {
          const facts = factsOf(certificate);
          if (facts) this.set({ purpose, subject: facts.subject, sha256: facts.sha256 }, facts.notAfter);
        }
    },
  });

  const trust = async (): Promise<TrustFacts | undefined> => {
    const source = schemes.all().find((scheme) => scheme.documentTrustStore);
    const store = source && (await within(SOURCE_TIMEOUT_MS, source.documentTrustStore!(), undefined));
    return store && trustFactsOf(store);
  };

  new Gauge({
    name: 'broker_csca_not_after_seconds',
    help: "Document verifier: per country, the latest notAfter (Unix seconds) among its trusted CSCA certificates; key_id is that CSCA's subject key identifier (first 16 hex digits)",
    labelNames: ['country', 'key_id'] as const,
    registers: [registry],
    async collect() {
      const facts = await trust();
      this.reset();
      for (const { country, keyId, notAfter } of facts?.csca ?? []) this.set({ country, key_id: keyId }, notAfter);
    },
  });

  new Gauge({
    name: 'broker_crl_next_update_seconds',
    help: 'Document verifier: nextUpdate (Unix seconds) of the CSCA CRLs it holds, by the country and key_id of the CSCA that signed them (the latest, when one CSCA has several)',
    labelNames: ['country', 'key_id'] as const,
    registers: [registry],
    async collect() {
      const facts = await trust();
      this.reset();
      for (const { country, keyId, nextUpdate } of facts?.crls ?? []) this.set({ country, key_id: keyId }, nextUpdate);
    },
  });
}

// Parsed once per certificate: the owners keep the same byte arrays (and the SAML PEM string) for their lifetime.
const parsedDer = new WeakMap<Uint8Array, CertificateFacts | null>();
const parsedPem = new Map<string, CertificateFacts | null>();

function factsOf(certificate: Held): CertificateFacts | null {
  const cache = typeof certificate === 'string' ? parsedPem : parsedDer;
  const known = (cache as Map<Held, CertificateFacts | null>).get(certificate);
  if (known !== undefined) return known;
  let facts: CertificateFacts | null = null;
  try {
    const x509 = new X509Certificate(typeof certificate === 'string' ? certificate : Buffer.from(certificate));
    facts = {
      subject: x509.subject.replace(/\n/g, ', '),
      sha256: createHash('sha256').update(x509.raw).digest('hex').slice(0, 16),
      notAfter: seconds(x509.validTo),
    };
  } catch {
    // not a certificate: no series (the owner refuses it where it matters)
  }
  if (typeof certificate === 'string') {
    if (parsedPem.size >= 64) parsedPem.clear();
    parsedPem.set(certificate, facts);
  } else parsedDer.set(certificate, facts);
  return facts;
}

// A trust store is built once and not changed after: its summary is computed once (a master list holds hundreds of CSCAs).
const trustSummaries = new WeakMap<TrustStore, TrustFacts>();

function trustFactsOf(store: TrustStore): TrustFacts {
  const known = trustSummaries.get(store);
  if (known) return known;
  const newest = new Map<string, DocumentCertificate>();
  for (const c of store.certificates()) {
    const country = countryOf(c);
    const had = newest.get(country);
    if (!had || c.notAfter.getTime() > had.notAfter.getTime()) newest.set(country, c);
  }
  const crls = new Map<string, TrustFacts['crls'][number]>();
  for (const { crl, signer } of store.revocationLists()) {
    if (!crl.nextUpdate) continue; // RFC 5280 §5.1.2.5: conforming CRL issuers always give one
    const entry = { country: countryOf(signer), keyId: keyIdOf(signer), nextUpdate: seconds(crl.nextUpdate) };
    const key = `${entry.country}/${entry.keyId}`;
    if ((crls.get(key)?.nextUpdate ?? -Infinity) < entry.nextUpdate) crls.set(key, entry);
  }
  const facts: TrustFacts = {
    csca: [...newest].map(([country, c]) => ({ country, keyId: keyIdOf(c), notAfter: seconds(c.notAfter) })),
    crls: [...crls.values()],
  };
  trustSummaries.set(store, facts);
  return facts;
}

/** The subject's countryName (ICAO 9303-12 §7.1.1: every CSCA name carries one), upper-cased; "unknown" without. */
function countryOf(c: DocumentCertificate): string {
  return /(?:^|, )C=([^,]+)/.exec(c.subject)?.[1].trim().toUpperCase() ?? 'unknown';
}

/** The subject key identifier's first 16 hex digits; the SHA-256 fingerprint's for a certificate without one. */
function keyIdOf(c: DocumentCertificate): string {
  try {
    const ski = c.subjectKeyIdentifier;
    if (ski) return toHex(ski).slice(0, 16).toLowerCase();
  } catch {
    // an unreadable extension is no identifier
  }
  return c.fingerprint.slice(0, 16);
}
