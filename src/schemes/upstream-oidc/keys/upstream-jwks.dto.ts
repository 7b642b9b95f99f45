import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class UpstreamJwkDto {
  @ApiProperty({ enum: ['RSA', 'EC'], example: 'RSA' }) kty: string;
  @ApiProperty({ example: 'sig-rs256-5f0c1d2e-8a7b-4c3d-9e1f-0a1b2c3d4e5f' }) kid: string;
  @ApiProperty({ enum: ['sig', 'enc'], example: 'sig' }) use: string;
  @ApiPropertyOptional({ example: 'RS256', description: 'absent on the ECDH-ES key: it serves every ECDH-ES variant' }) alg?: string;
  @ApiPropertyOptional({ example: 'AQAB' }) e?: string;
  @ApiPropertyOptional({
    example:
      '0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw',
  })
  n?: string;
  @ApiPropertyOptional({ example: 'P-256' }) crv?: string;
  @ApiPropertyOptional({ example: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU' }) x?: string;
  @ApiPropertyOptional({ example: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0' }) y?: string;
}

export class UpstreamJwksDto {
  @ApiProperty({ type: [UpstreamJwkDto] }) keys: UpstreamJwkDto[];
}
