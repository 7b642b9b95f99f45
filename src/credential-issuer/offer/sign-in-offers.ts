import { Injectable } from '@nestjs/common';
import { type CredentialOfferMaker, CredentialOfferMakerProvider, type ShownOffer } from '../../broker/spi/credential-offers.js';
import type { BrokeredIdentity } from '../../broker/spi/eid-provider.js';
import { CredentialOffersService } from './credential-offers.service.js';

const RECORD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The broker's offer page, fed by the issuer: an identity whose evidence is a document verification record (the
 * document verifier's) gets an offer; any other (a wallet, an upstream provider, the test eID) gets none.
 */
@Injectable()
@CredentialOfferMakerProvider()
export class SignInCredentialOffers implements CredentialOfferMaker {
  constructor(private readonly offers: CredentialOffersService) {}

  /** The offer's values; the broker page draws its QR code when it shows the offer (its GET). */
  async offerAfterSignIn(identity: BrokeredIdentity, clientId: string): Promise<ShownOffer | undefined> {
    if (!identity.evidenceRef || !RECORD_ID.test(identity.evidenceRef)) return undefined;
    return this.offers.offerFor(identity.evidenceRef, clientId);
  }
}
