/**
 * A specimen authority as plain bytes and back, so that a customer-test service keeps one CSCA across
 * restarts and instances (documents issued yesterday still chain today).
 */
import { createPrivateKey, createPublicKey, KeyObject, webcrypto } from 'node:crypto';
import { DocumentCertificate } from '../pki/certificate.js';
import { TrustStore } from '../pki/trustStore.js';
import type { SpecimenAuthority, SpecimenKeyPair, SpecimenKeyType } from './authority.js';

export interface ExportedSpecimenAuthority {
  country: string;
  keyType: SpecimenKeyType;
  cscaCertificate: Uint8Array;
  cscaPrivateKey: Uint8Array;
  documentSignerCertificate: Uint8Array;
  documentSignerPrivateKey: Uint8Array;
}

export function exportSpecimenAuthority(a: SpecimenAuthority): ExportedSpecimenAuthority {
  const pkcs8 = (k: KeyObject) => new Uint8Array(k.export({ format: 'der', type: 'pkcs8' }));
  return {
    country: a.country,
    keyType: a.keyType,
    cscaCertificate: a.csca.certificate.der,
    cscaPrivateKey: pkcs8(a.csca.keys.privateKey),
    documentSignerCertificate: a.documentSigner.certificate.der,
    documentSignerPrivateKey: pkcs8(a.documentSigner.keys.privateKey),
  };
}

async function restoreKeyPair(pkcs8: Uint8Array, type: SpecimenKeyType): Promise<SpecimenKeyPair> {
  const privateKey = createPrivateKey({ key: Buffer.from(pkcs8), format: 'der', type: 'pkcs8' });
  const publicKey = createPublicKey(privateKey);
  const algorithm = type === 'EC' ? { name: 'ECDSA', namedCurve: 'P-256' } : { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
  const cryptoKeys = {
    privateKey: await webcrypto.subtle.importKey('pkcs8', pkcs8, algorithm, true, ['sign']),
    publicKey: await webcrypto.subtle.importKey('spki', publicKey.export({ format: 'der', type: 'spki' }), algorithm, true, ['verify']),
  } as SpecimenKeyPair['cryptoKeys'];
  return { cryptoKeys, privateKey, publicKey };
}

export async function restoreSpecimenAuthority(e: ExportedSpecimenAuthority): Promise<SpecimenAuthority> {
  const csca = DocumentCertificate.fromDer(e.cscaCertificate, 'cscaCertificate');
  return {
    country: e.country,
    keyType: e.keyType,
    csca: { certificate: csca, keys: await restoreKeyPair(e.cscaPrivateKey, e.keyType) },
    documentSigner: {
      certificate: DocumentCertificate.fromDer(e.documentSignerCertificate, 'documentSignerCertificate'),
      keys: await restoreKeyPair(e.documentSignerPrivateKey, e.keyType),
    },
    trustStore() {
      const store = new TrustStore();
      store.addCsca(csca);
      return store;
    },
  };
}
