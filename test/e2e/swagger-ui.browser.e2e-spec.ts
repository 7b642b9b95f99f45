import { describeWithChromium, launchChromium, type Chromium } from '../support/chromium.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Swagger UI as an operator meets it: the Authorize dialog lists the admin token first and names every scheme for
 * who uses it, so a token pasted in the first field is the admin token (a verifier session field first made
 * operators paste their admin token there and get 401s). Swagger UI, not our document, decides the order shown.
 */
describeWithChromium('Swagger UI in a real browser', () => {
  let t: TestApp;
  let browser: Chromium;

  beforeAll(async () => {
    t = await startTestApp();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('opens Authorize on the admin token, then the merchant credentials, then the verifier app session', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${t.baseUrl}/admin/docs`);
    await page.getByRole('button', { name: 'Authorize' }).first().click();
    const headings = page.locator('.auth-container h4');
    await headings.first().waitFor();
    const shown = (await headings.allInnerTexts()).map((text) => text.trim().split(/\s+/)[0]);
    expect(shown).toEqual(['admin-api-token', 'merchant-client-credentials', 'verifier-app-session']);
    const first = (await page.locator('.auth-container').first().innerText()).replace(/\s+/g, ' ');
    expect(first).toContain('Operators: an admin API token');
    await page.close();
  }, 60_000);
});
