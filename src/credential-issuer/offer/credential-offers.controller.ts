import { Controller, Get, Header, Headers, Param, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiExcludeEndpoint, ApiOkResponse, ApiOperation, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { ErrorResponseDto } from '../../common/http/error-response.dto.js';
import { pickLocale } from '../../i18n/locales.js';
import { VCI_PATHS } from '../credential-issuer-paths.js';
import { credentialOfferUnavailable } from '../credential-issuer.errors.js';
import { AppSessionRecord, AppSessionRecordGuard, type SessionRecord } from './app-session-record.guard.js';
import { CredentialOfferDto } from './credential-offer.dto.js';
import { CredentialOffersService } from './credential-offers.service.js';
import { SECURITY_SCHEMES } from '../../common/http/security-schemes.js';

/**
 * The offer behind a credential_offer_uri (for wallets), and the verifier app's way to show one on its result screen
 * after a passed verification (the same offer the broker page shows).
 */
@ApiTags('verifier app')
@Controller()
export class CredentialOffersController {
  constructor(private readonly offers: CredentialOffersService) {}

  @Get(`${VCI_PATHS.offers}/:handle`)
  @ApiExcludeEndpoint()
  @Header('Cache-Control', 'no-store')
  offer(@Param('handle') handle: string, @Headers('accept-language') acceptLanguage?: string): Promise<Record<string, unknown>> {
    return this.offers.offerObject(handle, pickLocale(undefined, undefined, acceptLanguage));
  }

  @Post('app/v1/session/credential-offer')
  @UseGuards(AppSessionRecordGuard)
  @ApiBearerAuth(SECURITY_SCHEMES.APP_SESSION)
  @ApiOperation({
    summary: 'After a passed verification: an offer to keep the verified identity in the EU wallet (OpenID4VCI 1.0)',
    description:
      'Answers a credential offer link (openid-credential-offer://, for a QR code or a same-device button), the transaction ' +
      'code the wallet will ask for (show it to the person), a link with which the person can revoke the credential later, and ' +
      'when the offer expires. One verification has one offer: while it is not yet used and has not expired, every call (and the ' +
      'broker page) answers that same offer; after that, a new one. 409 when the session did ' +
      'not end with a passed verification, or the document has expired.',
  })
  @ApiOkResponse({ type: CredentialOfferDto })
  @ApiUnauthorizedResponse({ type: ErrorResponseDto, description: 'no or unknown session token' })
  async appOffer(@AppSessionRecord() session: SessionRecord): Promise<CredentialOfferDto> {
    const offer = session ? await this.offers.offerFor(session.recordId, session.clientId) : undefined;
    if (!offer) throw credentialOfferUnavailable();
    return { credential_offer: offer.link, tx_code: offer.txCode, revocation_url: offer.revokeUrl, expires_at: offer.expiresAt.toISOString() };
  }
}
