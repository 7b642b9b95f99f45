import { WalletTransactionsService } from '../../src/schemes/eu-wallet/transactions/wallet-transactions.service.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** A wallet transaction holds a response key and, until the browser takes it, an identity: gone once expired. */
describe('EU wallet transactions: retention', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('purges expired transactions with what they sealed, and keeps live ones', async () => {
    const transactions = t.app.get(WalletTransactionsService);
    const data = { nonce: 'n', state: 's', encryptionKey: {}, encryptionKeyId: 'k', dcqlQuery: {}, scopes: ['openid'], acrValues: [], returnState: 'r' };
    const pair = { same_device: data, cross_device: data };
    const old = await transactions.create('interaction-old', 'client', pair, new Date(Date.now() - 3_600_000));
    const live = await transactions.create('interaction-live', 'client', pair);
    expect(await transactions.purgeExpired()).toBeGreaterThanOrEqual(2);
    expect(await transactions.currentAttempt('interaction-old')).toBeUndefined();
    const current = await transactions.currentAttempt('interaction-live');
    expect([current?.sameDevice.id, current?.crossDevice.id]).toEqual([live.sameDevice.id, live.crossDevice.id]);
    expect(await transactions.live(old.crossDevice.id)).toBeUndefined();
  });
});
