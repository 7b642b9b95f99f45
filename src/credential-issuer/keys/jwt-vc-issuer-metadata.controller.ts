import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { VCI_PATHS } from '../credential-issuer-paths.js';
import { JwtVcIssuerMetadataService, type JwtVcIssuerMetadataDocument } from './jwt-vc-issuer-metadata.js';

/** What a verifier other than ours reads to check our credentials' signatures (docs/credential-issuer.md#issuer-keys-for-verifiers). */
@ApiExcludeController()
@Controller()
export class JwtVcIssuerMetadataController {
  constructor(private readonly metadata: JwtVcIssuerMetadataService) {}

  /** A verifier that meets a kid it does not know fetches again: a rotation signs at once (customer-test). */
  @Get(VCI_PATHS.jwtVcIssuerMetadata)
  @Header('Cache-Control', 'public, max-age=300')
  document(): Promise<JwtVcIssuerMetadataDocument> {
    return this.metadata.document();
  }
}
