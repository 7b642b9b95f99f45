import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBase64,
  IsIn,
  IsISO8601,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { SPECIMEN_IDENTITIES } from '../../../eid/test-eid/specimen-identities.js';

const B64 = { message: '$property must be Base64' };
/** Size bounds that keep a malicious upload from costing memory: a DG2 is tens of KB, a frame a few hundred. */
const MAX_FILE_B64 = 700_000;
const MAX_FRAME_B64 = 2_000_000;

export class OpenSessionDto {
  @ApiProperty({ description: 'The token from the QR code or deep link' })
  @IsString() @Matches(/^[A-Za-z0-9_-]{16,64}$/, { message: 'qr_token is not a session token' })
  qr_token: string;
}

export class SessionRequirementsDto {
  @ApiProperty({ type: [String], enum: ['I', 'P', 'D', 'V'], description: 'document kinds accepted (spec 4.7 ntdr-doc-types)' }) document_kinds: string[];
  @ApiProperty({ description: 'show the document type selection page (ntdr-app-doclist)' }) show_document_list: boolean;
  @ApiPropertyOptional({ description: 'text for the user: the binding message' }) binding_message?: string;
  @ApiPropertyOptional({ description: 'transaction text to show; markdown is to be rendered as text or safe markdown' })
  transaction_text?: { type: string; content: string };
}

export class OpenedSessionDto {
  @ApiProperty({ description: 'Bearer token for the next calls of this session' }) session_token: string;
  @ApiProperty() expires_at: string;
  @ApiProperty({ type: SessionRequirementsDto }) requirements: SessionRequirementsDto;
}

export class SessionStatusDto {
  @ApiProperty({ enum: ['created', 'opened', 'chip_received', 'face_received', 'completed', 'cancelled', 'expired'] }) state: string;
  @ApiProperty() expires_at: string;
  @ApiProperty({ type: SessionRequirementsDto }) requirements: SessionRequirementsDto;
}

export class ChallengeDto {
  @ApiProperty({ description: '8 random bytes, hex: the challenge for INTERNAL AUTHENTICATE (ICAO 9303-11 §6.1)' }) challenge: string;
}

export class ChipAuthenticationDto {
  @ApiProperty() @IsBase64(undefined, B64) @MaxLength(2000) terminal_private_key: string;
  @ApiProperty() @IsBase64(undefined, B64) @MaxLength(2000) response_apdu: string;
  @ApiProperty() @IsBase64(undefined, B64) @MaxLength(100) ssc: string;
  @ApiPropertyOptional() @IsOptional() @Type(() => Number) key_id?: number;
}

export class ActiveAuthenticationDto {
  @ApiProperty({ description: "the chip's INTERNAL AUTHENTICATE response to the server challenge, Base64" })
  @IsBase64(undefined, B64) @MaxLength(2000)
  signature: string;
}

export class ChipUploadDto {
  @ApiProperty({ description: 'EF.SOD, Base64' })
  @IsBase64(undefined, B64) @MaxLength(MAX_FILE_B64)
  sod: string;

  @ApiProperty({ description: 'data groups read, by number: { "1": Base64, "2": Base64, ... }; DG1 and DG2 are required', example: { '1': 'YV...', '2': 'dY...' } })
  @IsObject()
  data_groups: Record<string, string>;

  @ApiPropertyOptional({ type: ActiveAuthenticationDto })
  @IsOptional() @ValidateNested() @Type(() => ActiveAuthenticationDto)
  active_authentication?: ActiveAuthenticationDto;

  @ApiPropertyOptional({ type: ChipAuthenticationDto })
  @IsOptional() @ValidateNested() @Type(() => ChipAuthenticationDto)
  chip_authentication?: ChipAuthenticationDto;
}

export class ChipResultDto {
  @ApiProperty({ description: 'the chip data was read and checked; the outcome is known only at the end' }) received: boolean;
  @ApiProperty({
    enum: ['face', 'outcome'],
    description:
      "'face': the chip passed; ask for a liveness challenge. 'outcome': the chip failed (passive authentication, clone " +
      'detection, document kind or expiry); the session is completed as fail, read GET /session/outcome; the liveness and ' +
      'face steps answer 409 for this session',
  })
  next: 'face' | 'outcome';
}

export class LivenessChallengeDto {
  @ApiProperty() challenge_id: string;
  @ApiProperty({ type: [String], enum: ['left', 'center', 'right'], description: 'one frame per pose, in this order' }) sequence: string[];
  @ApiProperty({ description: 'frames must be sent before this time (liveness data is valid only minutes)' }) expires_at: string;
}

export class FaceFrameDto {
  @ApiProperty({ enum: ['left', 'center', 'right'] })
  @IsIn(['left', 'center', 'right'])
  pose: 'left' | 'center' | 'right';

  @ApiProperty({ description: 'JPEG or PNG, Base64' })
  @IsBase64(undefined, B64) @MaxLength(MAX_FRAME_B64)
  image: string;

  @ApiProperty({ description: 'when the frame was captured (ISO 8601)' })
  @IsISO8601()
  captured_at: string;
}

export class FaceUploadDto {
  @ApiProperty() @IsString() @MaxLength(100) challenge_id: string;

  @ApiProperty({ type: [FaceFrameDto] })
  @IsArray() @ArrayMinSize(1) @ArrayMaxSize(5) @ValidateNested({ each: true }) @Type(() => FaceFrameDto)
  frames: FaceFrameDto[];
}

export class OutcomeDto {
  @ApiProperty({ enum: ['created', 'opened', 'chip_received', 'face_received', 'completed', 'cancelled', 'expired'] }) state: string;
  @ApiPropertyOptional({ enum: ['pass', 'fail'] }) authentication_result?: string;
  @ApiPropertyOptional({ type: [String] }) result_explanation?: string[];
  @ApiPropertyOptional() facematch_level?: number;
}

export class SpecimenRequestDto {
  @ApiPropertyOptional({ enum: SPECIMEN_IDENTITIES.map((p) => p.id), default: 'uto-passport' })
  @IsOptional() @IsIn(SPECIMEN_IDENTITIES.map((p) => p.id))
  person?: string;

  @ApiProperty({ description: 'the face image for DG2 (JPEG), Base64' })
  @IsBase64(undefined, B64) @MaxLength(MAX_FILE_B64)
  face_image: string;
}

export class SpecimenDocumentDto {
  @ApiProperty() sod: string;
  @ApiProperty() data_groups: Record<string, string>;
  @ApiProperty({ description: 'the chip Active Authentication private key (PKCS#8, Base64): specimen only' }) active_authentication_key: string;
  @ApiProperty() mrz: string;
}
