import { html, SafeHtml } from '../../../common/html/escape.js';
import { layout, type PageSite } from '../../../common/pages/layout.js';
import type { PageLogo } from '../../../common/pages/page-logo.js';
import { CREDENTIAL_OFFER_MESSAGES } from '../../../i18n/credential-offer-messages.js';
import type { UiLocale } from '../../../i18n/locales.js';
import type { CredentialOfferView } from '../../spi/credential-offers.js';

export interface OfferPageModel {
  site: PageSite;
  locale: UiLocale;
  heading: string;
  merchantName: string;
  offer: CredentialOfferView;
  continueAction: string;
  csrf: string;
  logo?: PageLogo;
}

/**
 * Between a passed verification and the way back to the merchant: the offer to keep the verified identity in the
 * wallet. On a phone the wallet opens from a button (the same device); on a desktop the phone's wallet scans the QR
 * code. The transaction code is shown here, the only place it exists. Continuing needs no choice about the offer:
 * the sign-in goes on either way. Focus as on the waiting page: the wallet button on a phone, else Continue.
 */
export function offerPage(m: OfferPageModel): string {
  const t = CREDENTIAL_OFFER_MESSAGES[m.locale];
  const until = m.offer.expiresAt.toISOString().slice(11, 16);
  return layout(
    m.site,
    m.locale,
    t.offerTitle,
    html`<h1>${m.heading}</h1>
<h2>${t.offerTitle}</h2>
<p>${t.offerIntro}</p>
<div id="offer">
<a href="${m.offer.link}" data-action="add-to-wallet" autofocus>${t.openWallet}</a>
<div class="on-desktop"><p>${t.qrInstruction}</p>
<div class="qr" role="img" aria-label="${t.qrLabel}">${new SafeHtml(m.offer.qrSvg)}</div></div>
</div>
<h3 id="tx-code-label">${t.txCodeLabel}</h3>
<p class="tx-code" aria-labelledby="tx-code-label" data-tx-code="${m.offer.txCode}">${m.offer.txCode}</p>
<p class="hint">${t.txCodeHelp} ${t.validUntil.replace('{time}', until)}</p>
<form class="choice" method="post" action="${m.continueAction}" data-action="continue">
<input type="hidden" name="_csrf" value="${m.csrf}">
<input type="hidden" name="after_offer" value="1">
<button type="submit" autofocus>${t.continueTo.replace('{merchant}', m.merchantName)}</button>
</form>
<p class="hint">${t.revokeHelp} <a href="${m.offer.revokeUrl}" data-action="revoke">${t.revokeLink}</a></p>`,
    { logo: m.logo },
  );
}
