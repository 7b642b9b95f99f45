import { ApiProperty } from '@nestjs/swagger';

export class CredentialOfferDto {
  @ApiProperty({
    description: 'the offer for the wallet: show it as a QR code, or open it on this phone',
    example: 'openid-credential-offer://?credential_offer_uri=https%3A%2F%2Fbroker.example%2Fvci%2Foffers%2F…',
  })
  credential_offer: string;

  @ApiProperty({ description: 'the transaction code the wallet asks for: show it to the person, beside the offer', example: '493027' })
  tx_code: string;

  @ApiProperty({ description: "the person's link to revoke the credentials issued from this offer", example: 'https://broker.example/vci/revoke/…' })
  revocation_url: string;

  @ApiProperty({ description: 'until when the offer can be taken (ISO 8601)', example: '2026-11-26T10:10:00.000Z' })
  expires_at: string;
}
