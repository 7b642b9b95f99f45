import { Inject, Injectable } from '@nestjs/common';
import type { KeyObject } from 'node:crypto';
import { buildTd1, buildTd3, Icao9303Error, issueSpecimenDocument, type MrzFields } from '@identity-broker/icao9303';
import { APP_CONFIG, type AppConfig } from '../../../config/load-config.js';
import { SPECIMEN_IDENTITIES } from '../../../verifier-claims/specimen-identities.js';
import type { SpecimenDocumentDto, SpecimenRequestDto } from '../app-api/dto/app-api.dto.js';
import { specimenOnlyInTest, unusableFaceData } from '../verifier.errors.js';
import { SpecimenAuthorityService } from './specimen-authority.service.js';

const pkcs8 = (key: KeyObject) => Buffer.from(key.export({ format: 'der', type: 'pkcs8' })).toString('base64');

/**
 * customer-test only: issues a specimen chip (signed by this environment's specimen CSCA) for one of the
 * test identities with the caller's face photo in DG2, so a merchant can run the whole verifier flow
 * with the test app and no phone or real document.
 */
@Injectable()
export class SpecimenDocumentsService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly authority: SpecimenAuthorityService,
  ) {}

  async issue(dto: SpecimenRequestDto): Promise<SpecimenDocumentDto> {
    if (this.config.isProduction) throw specimenOnlyInTest();
    const person = SPECIMEN_IDENTITIES.find((p) => p.id === (dto.person ?? 'uto-passport'))!;
    const h = person.holder;
    const [surname, given = ''] = h.mrzName.split('<<');
    const fields: MrzFields = {
      issuingState: h.issuingState,
      surname: surname.replace(/</g, ' '),
      givenNames: given.replace(/</g, ' '),
      documentNumber: h.documentNumber,
      nationality: h.nationality,
      dateOfBirth: h.mrzDateOfBirth,
      sex: h.sex === 'X' ? '<' : h.sex,
      dateOfExpiry: h.mrzDateOfExpiry,
      optionalData: h.optionalData,
    };
    const mrz = h.documentCode.startsWith('P') ? buildTd3(fields) : buildTd1({ ...fields, documentCode: h.documentCode });
    const [dg11Surname, dg11Given = ''] = (h.dg11?.fullName ?? '').split('<<');
    const chipAuthOnly = dto.clone_detection === 'chip-authentication';
    const doc = await issueSpecimenDocument(await this.authority.get(), {
      mrz,
      faceImage: new Uint8Array(Buffer.from(dto.face_image, 'base64')),
      dg11: h.dg11 && {
        surname: dg11Surname.replace(/</g, ' ') || undefined,
        givenNames: dg11Given.replace(/</g, ' ') || undefined,
        personalNumber: h.dg11.personalNumber,
        fullDateOfBirth: h.dg11.fullDateOfBirth,
        placeOfBirth: h.dg11.placeOfBirth,
      },
      // Chip Authentication only: DG14 with a CA key and no DG15, so the CA challenge is the chip's only proof
      activeAuthentication: chipAuthOnly ? false : 'EC',
      chipAuthentication: chipAuthOnly,
    }).catch((e: unknown) => {
      // The only caller input the library looks at is the photo: DG2 takes JPEG or JPEG 2000 (9303-10 §4.7.2).
      if (e instanceof Icao9303Error && e.field === 'faceImage') throw unusableFaceData('face_image must be a JPEG (or JPEG 2000) image');
      throw e;
    });
    return {
      mrz: doc.mrz,
      sod: Buffer.from(doc.sod).toString('base64'),
      data_groups: Object.fromEntries([...doc.dataGroups].map(([n, bytes]) => [String(n), Buffer.from(bytes).toString('base64')])),
      ...(doc.activeAuthKey ? { active_authentication_key: pkcs8(doc.activeAuthKey.privateKey) } : {}),
      ...(doc.chipAuthKey ? { chip_authentication_key: pkcs8(doc.chipAuthKey.privateKey) } : {}),
    };
  }
}
