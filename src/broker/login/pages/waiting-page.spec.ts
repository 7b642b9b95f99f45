import { pageSiteOf } from '../../../common/pages/layout.js';
import { UI_LOCALES } from '../../../i18n/locales.js';
import { messagesFor } from '../../../i18n/messages.js';
import { WAITING_MESSAGES } from '../../../i18n/waiting-messages.js';
import { WALLET_MESSAGES } from '../../../schemes/eu-wallet/wallet-messages.js';
import { waitingPage, type WaitingPageModel } from './waiting-page.js';

const page = (locale: (typeof UI_LOCALES)[number], texts?: WaitingPageModel['texts']) =>
  waitingPage({
    site: pageSiteOf({}),
    locale,
    messages: messagesFor(locale),
    heading: 'Sign in',
    title: 'Waiting',
    context: [],
    qrSvg: '<svg></svg>',
    link: 'https://example.test/link',
    statusUrl: '/status',
    progress: 'waiting',
    texts,
    steps: [],
    app: texts ? undefined : { name: 'Broker Verify', storeLinks: [] },
    refreshUrl: '/refresh',
    continueAction: '/continue',
    cancelAction: '/cancel',
    csrf: 'token',
  });

const hintOf = (html: string) => /<span class="hint" id="continue-hint">([^<]*)<\/span>/.exec(html)?.[1];
const unescape = (text: string) => text.replaceAll('&#39;', "'").replaceAll('&quot;', '"').replaceAll('&amp;', '&');

/** What Continue's hint says the page waits for is the scheme's own thing: the ID app on its page, the wallet on the wallet's. */
describe('waiting page: the hint under Continue names what the page waits for', () => {
  it.each(UI_LOCALES)('%s', (locale) => {
    const wallet = WALLET_MESSAGES[locale];
    const app = hintOf(page(locale));
    const walletHint = hintOf(page(locale, wallet));
    expect(app && unescape(app)).toBe(WAITING_MESSAGES[locale].continueHint);
    expect(walletHint && unescape(walletHint)).toBe(wallet.continueHint);
    expect(wallet.continueHint).not.toBe(WAITING_MESSAGES[locale].continueHint);
    // The wallet's hint names the wallet in the words its page uses for it (the QR code's label names it too).
    const walletWord = /(wallet|plånbok|lommebok|tegnebog|lompak|rahakot|mak|Brieftasche|portefeuille)/i.exec(wallet.qrLabel)![1];
    expect(wallet.continueHint.toLowerCase()).toContain(walletWord.toLowerCase());
  });
});
