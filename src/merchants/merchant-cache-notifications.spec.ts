import { createServer, type AddressInfo, type Socket } from 'node:net';
import pg from 'pg';
import { Clock } from '../common/clock.js';
import { addLogSink } from '../common/logging/logger.js';
import type { DatabaseHandle } from '../database/data-source-options.js';
import { NotificationListener, NotificationListeners } from '../database/notification-listener.js';
import { MerchantCache } from './merchant-cache.js';
import { freePort } from '../../test/support/free-port.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, probe: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(50);
  }
}

/** A server that accepts connections and never says a word: a frozen database, or a proxy whose database hangs. */
async function silentServer(): Promise<{ url: string; accepted: () => number; close: () => Promise<void> }> {
  const sockets: Socket[] = [];
  const server = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/silent`,
    accepted: () => sockets.length,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

/**
 * The connection each instance LISTENs on must come back by itself, whatever took it: a connection attempt that
 * never ends would keep it away for good. No PostgreSQL here: servers of the test's own, on ephemeral ports.
 */
describe('database notification listener', () => {
  let quiet: () => void;
  beforeEach(() => (quiet = addLogSink(() => undefined, { capture: true })));
  afterEach(() => quiet());

  it('gives up a connection attempt the server never answers, and tries again', async () => {
    const server = await silentServer();
    const listener = new NotificationListener({ url: server.url, channel: 'test_channel', applicationName: 'test-listener', onNotification: () => undefined });
    const starting = listener.start();
    try {
      // Within the connect timeout (5 s) and the first wait (1 s), with room for a loaded machine.
      await until('a second connection attempt', () => server.accepted() >= 2, 10_000);
      await starting;
      expect(listener.isListening).toBe(false);
    } finally {
      await listener.close();
      await server.close();
    }
  }, 20_000);

  it("backs the merchant cache's attempts off (after 1 s, then 2 s, 4 s …) while the database refuses them", async () => {
    const url = `postgresql://postgres@127.0.0.1:${await freePort()}/closed`;
    const handle: DatabaseHandle = { singleSession: false, options: { type: 'postgres', url }, close: async () => undefined };
    const connect = pg.Client.prototype.connect as (...args: unknown[]) => unknown;
    let attempts = 0;
    pg.Client.prototype.connect = function (this: pg.Client, ...args: unknown[]) {
      if ((this as unknown as { connectionParameters: { port: number } }).connectionParameters.port === Number(new URL(url).port)) attempts++;
      return connect.apply(this, args);
    } as typeof pg.Client.prototype.connect;
    const cache = new MerchantCache(handle, new Clock(), new NotificationListeners(handle));
    try {
      await cache.onModuleInit();
      expect(cache.isListening).toBe(false);
      await sleep(5_000);
      // At 0, 1 and 3 s; the next one is due at 7 s. A fixed 1 s would have made five.
      expect(attempts).toBe(3);
      expect(cache.isListening).toBe(false);
    } finally {
      pg.Client.prototype.connect = connect as typeof pg.Client.prototype.connect;
      await cache.onApplicationShutdown();
    }
  }, 20_000);
});
