import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBase64,
  Equals,
  IsIn,
  IsInt,
  IsISO8601,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { SPECIMEN_IDENTITIES } from '../../../../verifier-claims/specimen-identities.js';
import { DIRECTIONS, LIVENESS_RULES } from '../../verification/liveness-rules.js';

const B64 = { message: '$property must be Base64' };
/** Size bounds that keep a malicious upload from costing memory: a DG2 is tens of KB, a frame a few hundred. */
const MAX_FILE_B64 = 700_000;
const MAX_FRAME_B64 = 2_000_000;
/** The centre frame and the largest bursts. */
const MAX_FRAMES = 1 + LIVENESS_RULES.steps * LIVENESS_RULES.maxBurstFrames;
/** DG14 holds a few security infos and keys: a few KB at most. */
const MAX_DG14_B64 = 20_000;

export class OpenSessionDto {
  @ApiProperty({ description: 'The token from the QR code or deep link' })
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{16,64}$/, { message: 'qr_token is not a session token' })
  qr_token: string;
}

export class SessionRequirementsDto {
  @ApiProperty({ type: [String], enum: ['I', 'P', 'D', 'V'], description: 'document kinds accepted (spec 4.7 ntdr-doc-types)' }) document_kinds: string[];
  @ApiProperty({ description: 'show the document type selection page (ntdr-app-doclist)' }) show_document_list: boolean;
  @ApiPropertyOptional({ description: 'text for the user: the binding message (HTML removed; show as text)' }) binding_message?: string;
  @ApiPropertyOptional({
    description: 'transaction text to show (HTML removed, markdown images and non-https links disarmed): text as text, markdown as markdown, never as HTML',
  })
  transaction_text?: { type: string; content: string };
}

export class OpenedSessionDto {
  @ApiProperty({ description: 'Bearer token for the next calls of this session' }) session_token: string;
  @ApiProperty() expires_at: string;
  @ApiProperty({ type: SessionRequirementsDto }) requirements: SessionRequirementsDto;
}

export class SessionStatusDto {
  @ApiProperty({ enum: ['created', 'opened', 'chip_received', 'face_received', 'completed', 'cancelled', 'expired'], example: 'opened' }) state: string;
  @ApiProperty() expires_at: string;
  @ApiProperty({ type: SessionRequirementsDto }) requirements: SessionRequirementsDto;
}

export class ChallengeDto {
  @ApiProperty({ description: '8 random bytes, hex: the challenge for INTERNAL AUTHENTICATE (ICAO 9303-11 §6.1)' }) challenge: string;
}

/** Removed field of the chip step: a terminal key the app knows lets anyone forge the chip's answer. */
export const TERMINAL_KEY_REFUSED =
  'terminal_private_key is no longer accepted: the server is the Chip Authentication terminal; ask POST /app/v1/session/ca-challenge ' +
  "for its ephemeral public key and protected command, and send only the chip's response_apdu (ICAO 9303-11 §6.2)";

export class CaChallengeRequestDto {
  @ApiProperty({
    description: 'DG14 exactly as read from the chip (the same bytes as in the chip step), Base64',
    example:
      'bnsxeTBmBgkEAH8ABwICAQIwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAARknWEQuqpvdWonpBDhcOKJ2T2ahol0s7BUONtsvunw1dsJBq5i4UE59/BzmkA971CYTaT8yGkfEqApesmHRMoWMA8GCgQAfwAHAgIDAgICAQE=',
  })
  @IsNotEmpty()
  @IsBase64(undefined, B64)
  @MaxLength(MAX_DG14_B64)
  dg14: string;

  @ApiPropertyOptional({ description: 'the ChipAuthenticationPublicKeyInfo keyId to use when DG14 holds several keys (ICAO 9303-11 §9.2.6)', example: 1 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(0x7fffffff)
  key_id?: number;
}

export class CaChallengeDto {
  @ApiProperty({
    description:
      "the server's ephemeral public key for the key agreement (MSE:Set KAT DO91 for 3DES protocols, GENERAL AUTHENTICATE for AES ones): an uncompressed EC point or a DH value, Base64 (ICAO 9303-11 §6.2)",
    example: 'BPj5wVmAO3X0G1R2/fAWCPd8YEUs+LER0mkgfDeLnNDHugDoiBVMPcwjWoXhboKyO9QoiQjb3mv1XUNhib1O698=',
  })
  terminal_public_key: string;

  @ApiProperty({
    description:
      'a command protected under the new session keys with SSC 0 (ICAO 9303-11 §9.8): send it to the chip as is right after the key agreement, and upload the answer in the chip step, Base64',
    example: 'DKQCDB2HEQFvK/ljIjCFkJpUkDq/KOSXjgiyEB5lyKLWOAA=',
  })
  protected_command: string;

  @ApiPropertyOptional({ description: 'the key reference (DO84) for the key agreement, when DG14 names one', example: 1 })
  key_id?: number;
}

export class ChipAuthenticationDto {
  @ApiProperty({
    description: "the chip's response APDU (data and status word) to protected_command from POST /session/ca-challenge, Base64",
    example: 'mQKQAI4IAp0xkJSZNDaQAA==',
  })
  @IsNotEmpty()
  @IsBase64(undefined, B64)
  @MaxLength(2000)
  response_apdu: string;

  /** Declared only to refuse it with a message that says why (not in the API description). */
  @ValidateIf((o: ChipAuthenticationDto) => o.terminal_private_key !== undefined)
  @Equals(undefined, { message: TERMINAL_KEY_REFUSED })
  terminal_private_key?: never;
}

export class ActiveAuthenticationDto {
  @ApiProperty({ description: "the chip's INTERNAL AUTHENTICATE response to the server challenge, Base64" })
  @IsBase64(undefined, B64)
  @MaxLength(2000)
  signature: string;
}

export class ChipUploadDto {
  @ApiProperty({ description: 'EF.SOD, Base64' })
  @IsBase64(undefined, B64)
  @MaxLength(MAX_FILE_B64)
  sod: string;

  @ApiProperty({
    description: 'data groups read, by number: { "1": Base64, "2": Base64, ... }; DG1 and DG2 are required',
    example: { '1': 'YV...', '2': 'dY...' },
  })
  @IsObject()
  data_groups: Record<string, string>;

  @ApiPropertyOptional({ type: ActiveAuthenticationDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => ActiveAuthenticationDto)
  active_authentication?: ActiveAuthenticationDto;

  @ApiPropertyOptional({
    type: ChipAuthenticationDto,
    description: "the chip's answer to the server's Chip Authentication challenge (POST /session/ca-challenge)",
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => ChipAuthenticationDto)
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

export class BurstFramesDto {
  @ApiProperty({ description: 'fewest frames in a movement burst', example: 2 }) min: number;
  @ApiProperty({ description: 'most frames in a movement burst', example: 4 }) max: number;
}

export class LivenessChallengeDto {
  @ApiProperty({
    description: 'answer with this id once (in the upload and in every frame); a new challenge replaces it',
    example: '0b7f7c3e-8f8a-4f39-9a61-2b1e6d1c9a50',
  })
  challenge_id: string;

  @ApiProperty({
    type: [String],
    enum: ['center', ...DIRECTIONS],
    description:
      "what to capture, by step index: step 0 is 'center' (one frame looking at the camera, the selfie matched against the " +
      "chip photo); each later step is a movement, answered by a burst of frames in which the head moves towards it: 'left' / " +
      "'right' turn the head to the user's own left / right (12° of yaw), 'tilt_left' / 'tilt_right' tilt it towards that " +
      'shoulder (15° of roll from the centre frame). Frames are as the camera captures them, not a mirrored preview',
    example: ['center', 'left', 'tilt_right', 'right', 'tilt_left'],
  })
  steps: string[];

  @ApiProperty({
    type: BurstFramesDto,
    description: 'frames per movement burst; the pose must progress towards the movement and the last frame reach it',
    example: { min: 2, max: 4 },
  })
  burst_frames: BurstFramesDto;

  @ApiProperty({
    description: 'frames must be captured after the challenge and sent before this time (liveness data is valid only minutes)',
    example: '2026-01-01T12:02:00.000Z',
  })
  expires_at: string;
}

export class FaceFrameDto {
  @ApiProperty({ description: "the challenge this frame answers (the same as the upload's challenge_id)", example: '0b7f7c3e-8f8a-4f39-9a61-2b1e6d1c9a50' })
  @IsString()
  @MaxLength(100)
  challenge_id: string;

  @ApiProperty({ description: 'index in the challenge steps: 0 = the centre frame, 1.. = the burst of that movement; frames in step order', example: 1 })
  @IsInt()
  @Min(0)
  @Max(LIVENESS_RULES.steps)
  step: number;

  @ApiProperty({
    description: 'JPEG, PNG or JPEG 2000, Base64',
    example: '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/',
  })
  @IsBase64(undefined, B64)
  @MaxLength(MAX_FRAME_B64)
  image: string;

  @ApiProperty({ description: 'when the frame was captured (ISO 8601); never earlier than the previous frame', example: '2026-01-01T12:00:03.250Z' })
  @IsISO8601()
  captured_at: string;
}

export class FaceUploadDto {
  @ApiProperty({ description: 'the liveness challenge answered; spent by this upload whatever its outcome', example: '0b7f7c3e-8f8a-4f39-9a61-2b1e6d1c9a50' })
  @IsString()
  @MaxLength(100)
  challenge_id: string;

  @ApiProperty({ type: [FaceFrameDto], description: 'the centre frame, then each movement burst, in capture order' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_FRAMES)
  @ValidateNested({ each: true })
  @Type(() => FaceFrameDto)
  frames: FaceFrameDto[];
}

export class OutcomeDto {
  @ApiProperty({ enum: ['created', 'opened', 'chip_received', 'face_received', 'completed', 'cancelled', 'expired'], example: 'completed' }) state: string;
  @ApiPropertyOptional({ enum: ['pass', 'fail'] }) authentication_result?: string;
  @ApiPropertyOptional({ type: [String] }) result_explanation?: string[];
  @ApiPropertyOptional() facematch_level?: number;
}

export class SpecimenRequestDto {
  @ApiPropertyOptional({ enum: SPECIMEN_IDENTITIES.map((p) => p.id), default: 'uto-passport' })
  @IsOptional()
  @IsIn(SPECIMEN_IDENTITIES.map((p) => p.id))
  person?: string;

  @ApiProperty({ description: 'the face image for DG2 (JPEG), Base64' })
  @IsBase64(undefined, B64)
  @MaxLength(MAX_FILE_B64)
  face_image: string;

  @ApiPropertyOptional({
    enum: ['active-authentication', 'chip-authentication'],
    default: 'active-authentication',
    description: 'the proof the specimen chip offers: Active Authentication (DG15, ICAO 9303-11 §6.1) or only Chip Authentication (a DG14 key, no DG15, §6.2)',
    example: 'chip-authentication',
  })
  @IsOptional()
  @IsIn(['active-authentication', 'chip-authentication'])
  clone_detection?: 'active-authentication' | 'chip-authentication';
}

export class SpecimenDocumentDto {
  @ApiProperty({ description: 'EF.SOD, Base64' }) sod: string;
  @ApiProperty({ description: 'the data groups by number, Base64' }) data_groups: Record<string, string>;
  @ApiPropertyOptional({ description: 'the chip Active Authentication private key (PKCS#8, Base64): specimen only; documents with DG15' })
  active_authentication_key?: string;
  @ApiPropertyOptional({
    description: 'the chip Chip Authentication private key of DG14 (PKCS#8, Base64): specimen only; the test app answers the CA challenge with it',
    example: 'MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgGdrbzuUnYiQw9k1Ygh0m8mu8HvAwJuEX6ZoUXGGRsdahRANCAAQ=',
  })
  chip_authentication_key?: string;
  @ApiProperty() mrz: string;
}
