import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** Swagger description of the error object every endpoint answers with (spec 2.7). */
export class ErrorResponseDto {
  @ApiProperty({ example: 'invalid_request' }) error: string;
  @ApiProperty({ example: 'redirect_uris: each redirect URI must be an absolute http(s) URL' }) error_description: string;
  @ApiPropertyOptional({ example: { redirect_uris: ['each redirect URI must be an absolute http(s) URL'] } })
  fields?: Record<string, string[]>;
  @ApiPropertyOptional({ example: '6f1c2a9e-2b1f-4b44-9d58-0c6f1c0f7a11' }) request_id?: string;
  @ApiPropertyOptional({ description: 'capture_retry only: why the face must be captured again', example: 'FACE_TOO_BLURRED' })
  retry_reason?: string;
  @ApiPropertyOptional({
    description:
      "capture_retry only: the words to show the user, in the language of the request's Accept-Language (one of the 12 locales of spec 2.9, else en_GB; Content-Language names it)",
    example: 'Bildet er uskarpt. Hold telefonen stødig og prøv igjen.',
  })
  retry_message?: string;
}
