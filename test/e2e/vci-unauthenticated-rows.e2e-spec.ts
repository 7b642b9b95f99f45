import { CredentialIssuerStatelessNonces1700000000244 as DropNonceTables } from '../../src/database/migrations/1700000000244-credential-issuer-stateless-nonces.js';
import { describeWithPostgres } from '../support/describe-with-postgres.js';
import { testKey } from '../support/credential-issuer.js';
import { tableRows } from '../support/table-rows.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { errorOf, madeUp, PRE_AUTH, vciClient } from '../support/vci-client.js';

/** Runs `count` calls of `call`, `parallel` at a time. */
async function times(count: number, parallel: number, call: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) await call(next++);
    }),
  );
}

/**
 * Anyone may ask the nonce endpoint for a c_nonce, and send the token and credential endpoints a DPoP proof of a key
 * made up for the purpose. None of it may cost the database a row: a c_nonce is sealed, not stored, and a DPoP proof's
 * jti is kept (in Redis or memory) only for a request that authenticated. Counted over every table of the real
 * PostgreSQL, before and after.
 */
describeWithPostgres('credential issuer: unauthenticated calls write nothing', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('3,000 nonce requests and 300 token and 300 credential requests with self-made DPoP keys add no row to any table', async () => {
    const vci = vciClient(t);
    // Whatever the first requests set up once (keys, lists) is there before the count starts.
    await vci.nonce();
    await vci.token(await testKey(), { grant_type: PRE_AUTH, 'pre-authorized_code': madeUp(), tx_code: '123456' });
    const before = await tableRows(t.dataSource);

    await times(3000, 16, async () => {
      expect(typeof (await vci.nonce())).toBe('string');
    });
    await times(300, 8, async (i) => {
      const key = await testKey();
      // Half the pre-authorized code grant, half the authorization code grant: codes nobody was given.
      const form: Record<string, string> =
        i % 2 === 0
          ? { grant_type: PRE_AUTH, 'pre-authorized_code': madeUp(), tx_code: '123456' }
          : { grant_type: 'authorization_code', code: madeUp(), redirect_uri: 'https://wallet.example/cb', client_id: 'a-wallet', code_verifier: madeUp() };
      expect(await errorOf(await vci.token(key, form))).toEqual({ status: 400, error: 'invalid_grant' });
    });
    await times(300, 8, async () => {
      const key = await testKey();
      const token = madeUp();
      expect(await errorOf(await vci.credential(key, token, await vci.nonce(), await vci.credentialProof(key, token)))).toEqual({
        status: 401,
        error: 'invalid_token',
      });
    });

    expect(await tableRows(t.dataSource)).toEqual(before);
  }, 180_000);

  it('has no table of nonces or DPoP proofs any more; the migration that dropped them goes down and up again', async () => {
    const tables = async () =>
      (await t.dataSource.query(`SELECT to_regclass('credential_issuer_nonces') AS nonces, to_regclass('credential_issuer_dpop_proofs') AS proofs`))[0];
    expect(await tables()).toEqual({ nonces: null, proofs: null });
    const runner = t.dataSource.createQueryRunner();
    try {
      await new DropNonceTables().down(runner);
      expect(await tables()).toEqual({ nonces: 'credential_issuer_nonces', proofs: 'credential_issuer_dpop_proofs' });
      await new DropNonceTables().up(runner);
      expect(await tables()).toEqual({ nonces: null, proofs: null });
    } finally {
      await runner.release();
    }
  });
});
