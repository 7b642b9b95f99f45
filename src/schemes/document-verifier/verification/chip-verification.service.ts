import { Inject, Injectable } from '@nestjs/common';
import {
  Icao9303Error,
  parseDg1,
  parseDg11,
  parseDg2,
  startChipAuthentication,
  verifyDocument,
  type ChipAuthChallenge,
  type ChipAuthEvidence,
  type CrlFreshnessCheck,
  type CrlFreshnessPolicy,
} from '@identity-broker/icao9303';
import { logger } from '../../../common/logging/logger.js';
import { APP_CONFIG, type AppConfig } from '../../../config/load-config.js';
import { verifierConfig } from '../config/verifier-config.js';
import { type DocumentKind, documentKindOf } from '../../../broker/spi/request/binding-message.js';
import type { DocumentHolderData } from '../../../verifier-claims/map-verifier-claims.js';
import { expiryDateFromMrz } from '../../../verifier-claims/dates.js';
import { unusableChipData } from '../verifier.errors.js';
import { judgeCloneDetection } from './clone-detection.js';
import type { CrlEvidence } from '../../../broker/spi/document-evidence/verification-record.js';
import { EXPLANATION, type Explanation } from '../../../broker/spi/document-evidence/explanations.js';
import { TrustStoreProvider } from './trust-store.provider.js';

/** ICAO 9303's specimen state, Utopia: no genuine document carries it. */
const SPECIMEN_STATE = 'UTO';

export interface ChipUpload {
  sod: Uint8Array;
  dataGroups: Map<number, Uint8Array>;
  activeAuthSignature?: Uint8Array;
  /** the chip's answer to this session's CA challenge, with the server's own terminal state */
  chipAuthentication?: ChipAuthEvidence;
}

/** What the chip step concluded; sealed in the session until the face step. */
export interface ChipEvidence {
  holder: DocumentHolderData;
  documentKind: DocumentKind | 'other';
  /** The chip's face image (DG2), base64, JPEG or JPEG 2000. */
  facePhoto: string;
  facePhotoType: string;
  explanations: Explanation[];
  passiveAuthentication: boolean;
  cloneDetection: 'active-authentication' | 'chip-authentication' | 'none';
  cloneDetectionPassed: boolean;
  /** A specimen document: signed under the specimen CSCA (customer-test) or issued by the ICAO specimen state UTO. */
  specimen: boolean;
  /** Human-readable failure reasons with their ICAO clauses, for support (never sent to merchants). */
  failures: string[];
  /** How current the CRL behind the signer chain was (RFC 5280 §6.3.3), for the evidence report's line. */
  crl: CrlEvidence;
  /** What passed but must not pass unsaid (an outdated CRL accepted in customer-test), with its clauses, for support. */
  warnings: string[];
}

@Injectable()
export class ChipVerificationService {
  /**
   * Production refuses a document whose CRL is outdated past the grace: what its CSCA revoked since is unknown, and
   * passing it would vouch for a signer that may be revoked. customer-test accepts it with a warning in the record and
   * the report, so that a test environment whose CRL nobody renews still runs, and nobody is misled.
   */
  private readonly crlPolicy: CrlFreshnessPolicy;

  constructor(
    private readonly trust: TrustStoreProvider,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.crlPolicy = { graceHours: verifierConfig(config).trust.crlGraceHours, outdated: config.isProduction ? 'refuse' : 'warn' };
  }

  /**
   * The server is the Chip Authentication terminal (ICAO 9303-11 §6.2): its own ephemeral key on the DG14 key's
   * domain parameters, session keys from the shared secret (§9.7.1) and a first protected command (§9.8).
   * The returned secret state must never leave the server.
   */
  startChipAuthentication(dg14: Uint8Array, keyId?: number): ChipAuthChallenge {
    try {
      return startChipAuthentication(dg14, keyId);
    } catch (e) {
      if (e instanceof Icao9303Error) throw unusableChipData(`DG14 cannot start Chip Authentication: ${e.message}`);
      throw e;
    }
  }

  /* eslint-disable-next-line complexity -- one pass from the uploaded data groups to the evidence record: the
     required data groups' guards, the verdict's explanations (clone, kind, expiry) and the record's optional fields
     (DG11, sex, CRL) each add a branch; all read the same parsed data groups, which a split would pass around */
  async verify(upload: ChipUpload, aaChallenge: Uint8Array | undefined, allowedKinds: DocumentKind[], now: Date): Promise<ChipEvidence> {
    const dg1Bytes = upload.dataGroups.get(1);
    const dg2Bytes = upload.dataGroups.get(2);
    if (!dg1Bytes) throw unusableChipData('DG1 (the MRZ) is required');
    if (!dg2Bytes) throw unusableChipData('DG2 (the face image) is required');
    try {
      const { mrz } = parseDg1(dg1Bytes);
      const face = parseDg2(dg2Bytes).faces[0];
      if (!face) throw unusableChipData('DG2 holds no face image');
      const dg11 = upload.dataGroups.has(11) ? parseDg11(upload.dataGroups.get(11)!) : undefined;
      const result = verifyDocument({
        sod: upload.sod,
        dataGroups: upload.dataGroups,
        trustStore: await this.trust.get(),
        at: now,
        activeAuth: upload.activeAuthSignature && aaChallenge ? { challenge: aaChallenge, signature: upload.activeAuthSignature } : undefined,
        chipAuth: upload.chipAuthentication,
        crlPolicy: this.crlPolicy,
      });
      const crl = result.checks.crlFreshness;
      if (crl.code === 'CRL_OUTDATED') logger.warn({ event: 'crl_outdated', crl: crl.crl, refused: !crl.ok }, crl.reason);
      const explanations = new Set<Explanation>(result.failures.map((f) => f.status as Explanation));
      // Decided by what the SOD lists, not by what was uploaded (9303-11 §6.1, §6.2; see clone-detection.ts).
      const clone = judgeCloneDetection(result, upload.dataGroups);
      if (clone.failed) explanations.add(EXPLANATION.CLONE_DETECTION);
      const kind = documentKindOf(mrz.documentCode);
      if (kind === 'other' || !allowedKinds.includes(kind)) explanations.add(EXPLANATION.DOCUMENT_TYPE);
      const expiry = expiryDateFromMrz(mrz.dateOfExpiry, now);
      const anchor = result.checks.certificateChain.path.at(-1)?.sha256;
      const specimenCsca = await this.trust.specimenCscaFingerprint();
      // Marked on its evidence report: a specimen proves the flow works, never anyone's identity.
      const specimen = mrz.issuingState.replace(/</g, '') === SPECIMEN_STATE || (anchor !== undefined && anchor === specimenCsca);
      if (!expiry || expiry < now.toISOString().slice(0, 10)) explanations.add(EXPLANATION.DOCUMENT_EXPIRED);
      return {
        holder: {
          documentCode: mrz.documentCode.replace(/</g, ''),
          issuingState: mrz.issuingState.replace(/</g, ''),
          documentNumber: mrz.documentNumber.replace(/</g, ''),
          mrzName: mrz.lines.length === 3 ? mrz.lines[2] : mrz.lines[0].slice(5),
          nationality: mrz.nationality.replace(/</g, ''),
          mrzDateOfBirth: mrz.dateOfBirth,
          sex: (['M', 'F', 'X'].includes(mrz.sex) ? mrz.sex : '<') as DocumentHolderData['sex'],
          mrzDateOfExpiry: mrz.dateOfExpiry,
          optionalData: mrz.optionalData,
          dg11: dg11 && {
            fullName: dg11.fullName?.raw,
            otherNames: dg11.otherNames.map((n) => n.raw),
            personalNumber: dg11.personalNumber,
            fullDateOfBirth: dg11.fullDateOfBirth,
            placeOfBirth: dg11.placeOfBirth?.split(','),
          },
        },
        documentKind: kind,
        facePhoto: Buffer.from(face.imageData).toString('base64'),
        facePhotoType: face.imageType,
        explanations: [...explanations],
        passiveAuthentication: !result.failures.some((f) => ['dataGroupHashes', 'documentSignature', 'certificateChain', 'crlFreshness'].includes(f.check)),
        cloneDetection: clone.method,
        cloneDetectionPassed: clone.passed,
        specimen,
        failures: [...result.failures.map((f) => f.reason), ...clone.problems],
        crl: crlEvidence(crl),
        warnings: crl.ok && crl.reason ? [crl.reason] : [],
      };
    } catch (e) {
      if (e instanceof Icao9303Error) throw unusableChipData(`the chip data cannot be read: ${e.message}`);
      throw e;
    }
  }
}

function crlEvidence(check: CrlFreshnessCheck): CrlEvidence {
  return { code: check.code, ...(check.crl?.nextUpdate ? { nextUpdate: check.crl.nextUpdate } : {}), refused: !check.ok };
}
