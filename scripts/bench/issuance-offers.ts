/**
 * Credential offers for bench-issuance, made as the broker makes them (CredentialOffersService.offerFor over a passed
 * verification record, sealed by VerificationRecordsService) on the database of the service under measurement, with
 * its secrets: in this process, so that the bench needs no route of its own in the service. The services are built
 * by hand over a DataSource of their two entities (no Nest application: nothing of the service runs here but them).
 * Each offer is then read as a wallet reads it, from the service's credential_offer_uri.
 *
 * The records carry what a real verification keeps (recordImages): the chip photo, the selfie as a phone sends it and
 * its face embedding, so that what issuance unseals of a record, with or without its images, shows in the figures.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { DataSource } from 'typeorm';
import type { DocumentEvidence } from '../../src/broker/spi/document-evidence/document-evidence.js';
import type { VerificationRecordData } from '../../src/broker/spi/document-evidence/verification-record.js';
import { Clock } from '../../src/common/clock.js';
import { SecretBox } from '../../src/common/crypto/secret-box.js';
import type { AppConfig } from '../../src/config/load-config.js';
import { CredentialIssuanceEntity } from '../../src/credential-issuer/issuances/credential-issuance.entity.js';
import { CredentialIssuancesService } from '../../src/credential-issuer/issuances/credential-issuances.service.js';
import { CredentialOffersService } from '../../src/credential-issuer/offer/credential-offers.service.js';
import { VerificationRecordEntity } from '../../src/schemes/document-verifier/records/verification-record.entity.js';
import { VerificationRecordsService } from '../../src/schemes/document-verifier/records/verification-records.service.js';
import { passedRecord } from '../../test/support/credential-issuer.js';
import { upscaledJpeg } from '../../test/support/oversized-images.js';

const PRE_AUTHORIZED_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';

/** What a wallet holds after reading an offer and asking the person for the transaction code. */
export interface ReadOffer {
  preAuthorizedCode: string;
  txCode: string;
}

const fixture = (path: string) => readFileSync(new URL(`../../test/fixtures/${path}`, import.meta.url));

/**
 * The images of a real record: a chip photo (the ISO/IEC 39794-5 sample DG2's JPEG 2000 face, 15 KB), the selfie as
 * a phone camera's 720x1280 JPEG frame of a fixture face (about 100 KB, the frame size bench:auth-files uses; the
 * record keeps the frame as sent) and a 128-d face embedding; Base64 in the record, as the verifier stores them.
 */
export async function recordImages(): Promise<Pick<VerificationRecordData, 'documentPhoto' | 'documentPhotoType' | 'selfie' | 'selfieEmbedding'>> {
  const selfie = await upscaledJpeg(fixture('verifier-faces/sheldon-center.png'), 720, 1280, 85);
  return {
    documentPhoto: fixture('icao/dg2/EF_DG2_ISO39794-5_expected_face.jpg').toString('base64'),
    documentPhotoType: 'JPEG2000',
    selfie: Buffer.from(selfie).toString('base64'),
    selfieEmbedding: Array.from({ length: 128 }, (_, i) => Math.sin(i) / 4),
  };
}

/** The secrets the service is started with (in its environment), so that this process seals and derives as it does. */
export function sharedSecrets(): Record<string, string> {
  return {
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    COOKIE_KEYS: randomBytes(32).toString('base64url'),
    SUBJECT_SECRET: randomBytes(32).toString('base64url'),
    PAIRWISE_SECRET: randomBytes(32).toString('base64url'),
  };
}

/** `count` offers for as many passed verifications (a Norwegian passport each), read from the service. */
export async function makeOffers(config: AppConfig, databaseUrl: string, count: number): Promise<ReadOffer[]> {
  const dataSource = new DataSource({
    type: 'postgres',
    url: databaseUrl,
    entities: [CredentialIssuanceEntity, VerificationRecordEntity],
    synchronize: false,
    logging: false,
    poolSize: 4,
  });
  await dataSource.initialize();
  try {
    const clock = new Clock();
    const records = new VerificationRecordsService(dataSource, new SecretBox(config.encryption.currentKeyId, config.encryption.keys), clock, config);
    // The offers read records through the broker SPI; here the records service stands in for the document verifier.
    const evidence = { record: (id: string) => records.get(id), recordClaims: (id: string) => records.getClaims(id) } as Pick<
      DocumentEvidence,
      'record' | 'recordClaims'
    > as DocumentEvidence;
    const images = await recordImages();
    const offers = new CredentialOffersService(config, clock, new CredentialIssuancesService(dataSource, clock, config), evidence);
    const read: ReadOffer[] = [];
    for (let i = 0; i < count; i++) {
      const recordId = randomUUID();
      const record = passedRecord(images);
      await records.store(recordId, record);
      const offer = await offers.offerFor(recordId, record.clientId);
      if (!offer) throw new Error('the service made no offer (is the credential issuer enabled?)');
      const offerUri = decodeURIComponent(/credential_offer_uri=([^&]+)/.exec(offer.link)![1]);
      const res = await fetch(offerUri);
      if (res.status !== 200) throw new Error(`the credential_offer_uri answered ${res.status}`);
      const grants = ((await res.json()) as { grants: Record<string, { 'pre-authorized_code': string }> }).grants;
      read.push({ preAuthorizedCode: grants[PRE_AUTHORIZED_CODE_GRANT]['pre-authorized_code'], txCode: offer.txCode });
    }
    return read;
  } finally {
    await dataSource.destroy();
  }
}
