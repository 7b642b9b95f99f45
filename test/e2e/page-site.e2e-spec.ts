import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * What every page shows from the configuration (the privacy notice link) belongs to the application that renders
 * the page: two services in one process (the test suite, a cluster test) each keep their own.
 */
describe('the page frame of each application', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await startTestApp({ env: { PRIVACY_NOTICE_URL: 'https://a.example/privacy' } });
    b = await startTestApp({ env: { PRIVACY_NOTICE_URL: 'https://b.example/privacy' } });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  const privacyLinkOf = async (t: TestApp) => {
    // An interaction that does not exist: the broker's error page, in the page frame.
    const page = await (await fetch(`${t.baseUrl}/its/interaction/no-such-interaction`)).text();
    return /<a href="([^"]+)" data-action="privacy-notice">/.exec(page)?.[1];
  };

  it('links each application to its own privacy notice, whichever started last', async () => {
    expect(await privacyLinkOf(a)).toBe('https://a.example/privacy');
    expect(await privacyLinkOf(b)).toBe('https://b.example/privacy');
  });
});
