import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { Equals, IsIn, IsObject, Matches, ValidateNested } from 'class-validator';

export const TEST_CREDENTIAL_KINDS = ['pid_sd_jwt', 'pid_mdoc', 'mdl'] as const;
export type TestCredentialKind = (typeof TEST_CREDENTIAL_KINDS)[number];

const COORDINATE = /^[A-Za-z0-9_-]{43}$/;

/** A P-256 public key as a JWK (RFC 7517): the holder's, bound into the credential. */
export class HolderKeyDto {
  @ApiProperty({ example: 'EC' }) @Equals('EC') kty: 'EC';
  @ApiProperty({ example: 'P-256' }) @Equals('P-256') crv: 'P-256';
  @ApiProperty({ example: 'DxiH5Q4Yx3UrukE2lWCErq8N8bqC9CHLLrAwLz5BmE0' }) @Matches(COORDINATE, { message: 'x must be 43 base64url characters' }) x: string;
  @ApiProperty({ example: 'XtLM4-3h5o3HUH0MHVJV0kyq0iBlrBwlh8qEDMZ4-Pc' }) @Matches(COORDINATE, { message: 'y must be 43 base64url characters' }) y: string;
}

export class TestCredentialRequestDto {
  @ApiProperty({ enum: TEST_CREDENTIAL_KINDS, description: 'PID as SD-JWT VC, PID as mdoc, or the mobile driving licence', example: 'mdl' })
  @IsIn(TEST_CREDENTIAL_KINDS)
  kind: TestCredentialKind;

  @ApiProperty({ type: HolderKeyDto, description: "the wallet's key for this credential: cnf.jwk of an SD-JWT VC, the deviceKey of an mdoc" })
  @IsObject()
  @ValidateNested()
  @Type(() => HolderKeyDto)
  holder_key: HolderKeyDto;
}

export class TestCredentialDto {
  @ApiProperty({ enum: TEST_CREDENTIAL_KINDS, example: 'pid_sd_jwt' }) kind: TestCredentialKind;
  @ApiProperty({ enum: ['dc+sd-jwt', 'mso_mdoc'], example: 'dc+sd-jwt' }) format: 'dc+sd-jwt' | 'mso_mdoc';
  @ApiProperty({
    description: 'the SD-JWT VC (issuer JWT and every disclosure, `~`-separated), or the mdoc (IssuerSigned document, CBOR, base64url)',
    example: 'eyJ0eXAiOiJkYytzZC1qd3QiLCJhbGciOiJFUzI1NiJ9.eyJ2Y3QiOiJ1cm46ZXVkaTpwaWQ6MSJ9.c2lnbmF0dXJl~WyJzYWx0IiwiZ2l2ZW5fbmFtZSIsIkVyaWthIl0~',
  })
  credential: string;
  @ApiProperty({
    description: "the root of this environment's request signer (DER, Base64): the certificate a wallet trusts the service's requests by",
    example: 'MIIBkTCCATegAwIBAgIMX3Rlc3Qtcm9vdC0xMAoGCCqGSM49BAMCMCwxCzAJBgNVBAYTAlVU',
  })
  request_signer_root: string;
}
