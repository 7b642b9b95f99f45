import { REDIRECT_URI } from './oidc-flow.js';
import type { TestApp } from './test-app.js';

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

/**
 * Whether `t`'s token endpoint accepts the merchant's credentials: 400 for the bad grant (the client was accepted)
 * rather than 401. How a test sees which merchants an instance knows, through its cache or the database.
 */
export const clientAccepted = async (t: TestApp, clientId: string, secret: string): Promise<boolean> =>
  (
    await fetch(`${t.baseUrl}/oidc/token`, {
      method: 'POST',
      headers: { authorization: basic(clientId, secret), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: 'not-a-code', redirect_uri: REDIRECT_URI }),
    })
  ).status !== 401;
