import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** Swagger description of the error object every endpoint answers with (spec 2.7). */
export class ErrorResponseDto {
  @ApiProperty({ example: 'invalid_request' }) error: string;
  @ApiProperty({ example: 'redirect_uris: each redirect URI must be an absolute http(s) URL' }) error_description: string;
  @ApiPropertyOptional({ example: { redirect_uris: ['each redirect URI must be an absolute http(s) URL'] } })
  fields?: Record<string, string[]>;
  @ApiPropertyOptional({ example: '6f1c2a9e-2b1f-4b44-9d58-0c6f1c0f7a11' }) request_id?: string;
}
