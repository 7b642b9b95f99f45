import { applyDecorators, Body, Controller, Get, Headers, HttpCode, Post, UseGuards, UseInterceptors } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiHeader,
  ApiConflictResponse,
  ApiGoneResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiUnauthorizedResponse,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { ErrorResponseDto } from '../../../common/http/error-response.dto.js';
import { localeFromAcceptLanguage } from '../../../i18n/locales.js';
import type { VerificationSessionEntity } from '../session/verification-session.entity.js';
import { AppSession, AppSessionGuard } from './app-session.guard.js';
import {
  CaChallengeDto,
  CaChallengeRequestDto,
  ChallengeDto,
  ChipResultDto,
  ChipUploadDto,
  FaceUploadDto,
  LivenessChallengeDto,
  OpenedSessionDto,
  OpenSessionDto,
  OutcomeDto,
  SessionStatusDto,
} from './dto/app-api.dto.js';
import { VerifierAppService } from './verifier-app.service.js';
import { ServerTimingInterceptor } from './server-timing.interceptor.js';
import { SECURITY_SCHEMES } from '../../../common/http/security-schemes.js';

/** A session step: authenticated by the session token, answering 200. */
const SessionStep = (method: 'get' | 'post') =>
  applyDecorators(
    ...(method === 'post' ? [HttpCode(200)] : []),
    UseGuards(AppSessionGuard),
    ApiBearerAuth(SECURITY_SCHEMES.APP_SESSION),
    ApiUnauthorizedResponse({ type: ErrorResponseDto, description: 'no or unknown session token' }),
  );

/**
 * The verifier app's API (what the SDK 1.9.1 talks to). Steps in order: open → AA and/or CA challenge → chip →
 * liveness challenge → face → outcome. Out-of-order calls answer 409, expired sessions 410.
 */
@ApiTags('verifier app')
@ApiConflictResponse({ type: ErrorResponseDto, description: 'the step does not fit the session state' })
@ApiGoneResponse({ type: ErrorResponseDto, description: 'the session or the liveness challenge has expired' })
@Controller('app/v1')
@UseInterceptors(ServerTimingInterceptor) // Server-Timing header: step durations for the bench and support
export class AppApiController {
  constructor(private readonly app: VerifierAppService) {}

  @Post('sessions')
  @HttpCode(200)
  @ApiOperation({ summary: 'Open the session from the QR code / deep link token (single use)' })
  @ApiOkResponse({ type: OpenedSessionDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  open(@Body() dto: OpenSessionDto): Promise<OpenedSessionDto> {
    return this.app.open(dto);
  }

  @Get('session')
  @SessionStep('get')
  @ApiOperation({ summary: 'State and requirements of the session' })
  @ApiOkResponse({ type: SessionStatusDto })
  status(@AppSession() session: VerificationSessionEntity): SessionStatusDto {
    return this.app.status(session);
  }

  @Post('session/aa-challenge')
  @SessionStep('post')
  @ApiOperation({ summary: 'A fresh Active Authentication challenge for the chip' })
  @ApiOkResponse({ type: ChallengeDto })
  aaChallenge(@AppSession() session: VerificationSessionEntity): Promise<ChallengeDto> {
    return this.app.activeAuthChallenge(session);
  }

  @Post('session/ca-challenge')
  @SessionStep('post')
  @ApiOperation({
    summary: 'A Chip Authentication challenge: the server is the CA terminal (ICAO 9303-11 §6.2)',
    description:
      'Send DG14 as read. The server makes an ephemeral key pair on the domain parameters of the DG14 key, derives the ' +
      'session keys and protects a first command under them. Run the key agreement with terminal_public_key (and key_id) over ' +
      "the chip's secure channel, then protected_command as is, and upload the chip's response APDU in the chip step " +
      '(chip_authentication.response_apdu) with the same DG14. A new challenge replaces the previous one; the chip step spends it.',
  })
  @ApiOkResponse({ type: CaChallengeDto })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto, description: 'DG14 cannot be read or holds no usable chip authentication key' })
  caChallenge(@AppSession() session: VerificationSessionEntity, @Body() dto: CaChallengeRequestDto): Promise<CaChallengeDto> {
    return this.app.chipAuthChallenge(session, dto);
  }

  @Post('session/chip')
  @SessionStep('post')
  @ApiOperation({
    summary: 'Upload EF.SOD, the data groups read, and the answer to the AA and/or CA challenge',
    description:
      'When the chip fails (passive authentication, clone detection, document kind or expiry) the session is completed ' +
      "as fail at this step and the answer's next is 'outcome': no face work is done for it, and the liveness and face " +
      "steps answer 409. When it passes, next is 'face'.",
  })
  @ApiOkResponse({ type: ChipResultDto })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto, description: 'the chip data cannot be read' })
  chip(@AppSession() session: VerificationSessionEntity, @Body() dto: ChipUploadDto): Promise<ChipResultDto> {
    return this.app.uploadChip(session, dto);
  }

  @Post('session/liveness-challenge')
  @SessionStep('post')
  @ApiOperation({
    summary: 'An active liveness challenge: a centre frame, then head movements drawn at random, each answered by a burst of frames',
    description:
      'Only after a chip step that passed; after a failed chip step the session is completed and this answers 409. A new ' +
      'challenge replaces the previous one; each challenge is answered by one face upload.',
  })
  @ApiOkResponse({ type: LivenessChallengeDto })
  livenessChallenge(@AppSession() session: VerificationSessionEntity): Promise<LivenessChallengeDto> {
    return this.app.livenessChallenge(session);
  }

  @Post('session/face')
  @SessionStep('post')
  @ApiOperation({
    summary: 'Upload the frames answering the liveness challenge (centre frame, then one burst per movement); answers the outcome',
    description:
      'Only after a chip step that passed (otherwise 409). The upload spends the challenge: a second upload of it, or ' +
      'frames naming another challenge, answer 409 liveness_challenge_mismatch. A centre frame that cannot be used answers 422 ' +
      'capture_retry with retry_reason (FACE_TOO_BLURRED, FACE_TOO_DARK, FACE_TOO_BRIGHT, FACE_TOO_SMALL, ' +
      'FACE_OFF_POSE, MULTIPLE_FACES, FACE_NOT_FOUND) and retry_message, the words for the user in the language of the ' +
      "request's Accept-Language (Content-Language names it): nothing was matched, the session stays at the face step, ask a new " +
      'challenge and capture again. Frames are JPEG of at most 12.5 megapixels (a 12 MP phone frame), PNG of at most ' +
      '4 megapixels or JPEG 2000 of at most 1 megapixel, and 8192 pixels a side; JPEG baseline, extended or progressive ' +
      'Huffman, 8-bit, grey or colour (no CMYK). Every frame is judged by its header before any frame is decoded: one ' +
      "that is not such an image answers 422 unusable_face_data naming the frame ('frame 9: ...'). A JPEG is decoded at a " +
      'reduced scale, and every frame is scaled down to 1024 pixels on its longest side before face analysis.',
  })
  @ApiHeader({
    name: 'accept-language',
    required: false,
    description: "The phone's languages: capture_retry's retry_message comes in the first of the 12 locales of spec 2.9 it names, else English",
    example: 'nb-NO, en;q=0.5',
  })
  @ApiOkResponse({ type: OutcomeDto })
  @ApiUnprocessableEntityResponse({
    type: ErrorResponseDto,
    description:
      'unusable_face_data: a frame is not a readable image, or declares more pixels than its format takes; capture_retry: the centre frame is unusable (retry_reason, retry_message)',
  })
  @ApiServiceUnavailableResponse({
    type: ErrorResponseDto,
    description: 'temporarily_unavailable: the face work of this instance is at its bound; nothing changed, retry after the Retry-After seconds',
  })
  face(@AppSession() session: VerificationSessionEntity, @Body() dto: FaceUploadDto, @Headers('accept-language') acceptLanguage?: string): Promise<OutcomeDto> {
    return this.app.uploadFace(session, dto, localeFromAcceptLanguage(acceptLanguage));
  }

  @Get('session/outcome')
  @SessionStep('get')
  @ApiOperation({ summary: 'The outcome once completed (pass/fail, reasons, face match level)' })
  @ApiOkResponse({ type: OutcomeDto })
  outcome(@AppSession() session: VerificationSessionEntity): OutcomeDto {
    return this.app.outcome(session);
  }

  @Post('session/cancel')
  @SessionStep('post')
  @ApiOperation({ summary: 'The user cancelled in the app' })
  @ApiOkResponse({ type: OutcomeDto })
  cancel(@AppSession() session: VerificationSessionEntity): Promise<OutcomeDto> {
    return this.app.cancel(session);
  }
}
