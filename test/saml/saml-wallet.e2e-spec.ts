import { adminClient } from '../support/admin-client.js';
import { REDIRECT_URI } from '../support/oidc-flow.js';
import { TestBrowser } from '../support/test-browser.js';
import { walletLinks } from '../support/wallet/wallet-login.js';
import { walletWorld, type WalletWorld } from '../support/wallet/wallet-world.js';
import { attributesOf, postedResponse, SAML_ACS } from './saml-flow.js';

/** A SAML 1.1 merchant changes nothing for the wallet: the same attributes as for any scheme, under its scopes. */
describe('SAML 1.1 merchant through the EU wallet scheme', () => {
  let w: WalletWorld;
  let mid: string;

  beforeAll(async () => {
    w = await walletWorld();
    const merchant = await adminClient(w.t.baseUrl, w.t.adminToken).createMerchant({
      name: 'Wallet SAML shop',
      redirect_uris: [REDIRECT_URI],
      eid_schemes: ['eu-wallet'],
      saml: { entity_id: 'https://wallet-shop.example/sp', assertion_consumer_url: SAML_ACS, scope: 'openid profile' },
    });
    mid = merchant.client_id;
  }, 120_000);
  afterAll(() => w?.close());

  it('Browser/POST with the mobile driving licence (another device): the assertion carries its attributes', async () => {
    const browser = new TestBrowser(w.t.baseUrl);
    let page = await browser.follow(await browser.get(`${w.t.baseUrl}/its/index.html?${new URLSearchParams({ mid, TARGET: 'after-wallet' })}`));
    if (page.html.includes('data-eid="eu-wallet"')) page = await browser.submit(page, 'eid', 'eu-wallet');
    expect((await w.wallet.answer(walletLinks(page).crossDevice, { use: 'mdl' })).status).toBe(200);
    const { form, xml } = postedResponse(await browser.submit(page, 'action', 'continue'), browser);
    expect(form.action).toBe(SAML_ACS);
    expect(attributesOf(xml)).toMatchObject({
      primaryidentifier: 'Svensson',
      secondaryidentifier: 'Anna',
      DOB: '03.02.1990',
      documentnumber: 'UT1234567',
      issuingcountry: 'UTO',
      documenttype: 'DRIVERS_LICENSE',
    });
  });
});
