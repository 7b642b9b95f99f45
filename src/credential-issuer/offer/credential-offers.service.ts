import { Inject, Injectable } from '@nestjs/common';
import { DocumentEvidence } from '../../broker/spi/document-evidence/document-evidence.js';
import { credentialOffer, credentialOfferLink } from '@identity-broker/eu-wallet';
import { Clock } from '../../common/clock.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { CREDENTIAL_OFFER_MESSAGES } from '../../i18n/credential-offer-messages.js';
import type { UiLocale } from '../../i18n/locales.js';
import { credentialValidUntil } from '../credential/credential-claims.js';
import { offerGone } from '../credential-issuer.errors.js';
import { CREDENTIAL_CONFIGURATION_ID, issuerUrls, type IssuerUrls } from '../credential-issuer-paths.js';
import { CredentialIssuancesService } from '../issuances/credential-issuances.service.js';
import { revocationPageUrl } from '../revocation/revocation-handle.js';

/** An offer as the person sees it once: the link (and its QR code), the transaction code, the revocation link. */
export interface OfferForPerson {
  link: string;
  txCode: string;
  revokeUrl: string;
  expiresAt: Date;
}

/**
 * Credential offers for passed verifications (OpenID4VCI 1.0 §4.1): by reference (`credential_offer_uri`, short
 * enough for a QR code), the pre-authorized code grant with a six-digit transaction code the wallet asks the person for.
 */
@Injectable()
export class CredentialOffersService {
  private readonly urls: IssuerUrls;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly issuances: CredentialIssuancesService,
    private readonly evidence: DocumentEvidence,
  ) {
    this.urls = issuerUrls(config.baseUrl);
  }

  /**
   * The offer for the verification `recordId` (its live one, shown again, or a new one: CredentialIssuancesService.offer),
   * or undefined when none can be made: the issuer is off, the record is gone or did not pass, or the document has expired.
   */
  async offerFor(recordId: string, clientId: string): Promise<OfferForPerson | undefined> {
    if (!this.config.credentialIssuer.enabled) return undefined;
    const record = await this.evidence.recordClaims(recordId);
    if (!record || record.result !== 'pass') return undefined;
    const until = credentialValidUntil(record, this.clock.now());
    if (until && until <= this.clock.now()) return undefined;
    const offer = await this.issuances.offer(recordId, clientId);
    if (!offer) return undefined;
    return {
      link: credentialOfferLink({ offerUri: this.urls.offer(offer.offerHandle), allowHttpLoopback: !this.config.isProduction }),
      txCode: offer.txCode,
      revokeUrl: revocationPageUrl(this.config.baseUrl, offer.revocationHandle),
      expiresAt: offer.expiresAt,
    };
  }

  /** The offer object behind a credential_offer_uri (OpenID4VCI 1.0 §4.1.3), while it can be redeemed. */
  async offerObject(offerHandle: string, locale: UiLocale): Promise<Record<string, unknown>> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(offerHandle) || !(await this.issuances.liveOffer(offerHandle))) throw offerGone();
    return (await credentialOffer({
      credentialIssuer: this.urls.issuer,
      configurationIds: [CREDENTIAL_CONFIGURATION_ID],
      preAuthorizedCode: this.issuances.preAuthorizedCodeOf(offerHandle),
      txCode: { length: 6, input_mode: 'numeric', description: CREDENTIAL_OFFER_MESSAGES[locale].txCodeHelp },
      allowHttpLoopback: !this.config.isProduction,
    })) as unknown as Record<string, unknown>;
  }
}
