import pg from 'pg';
import { logger } from '../common/logging/logger.js';

/** The first wait before listening again; doubled on each failure up to MAX_RELISTEN_MS, reset once listening. */
const RELISTEN_MS = 1_000;
const MAX_RELISTEN_MS = 30_000;
/**
 * The connection is asked a trivial query this often, answering within HEARTBEAT_TIMEOUT_MS: a connection cut
 * without a reset (a silent network partition) would otherwise look alive while notifications are lost.
 */
const HEARTBEAT_MS = 5_000;
const HEARTBEAT_TIMEOUT_MS = 3_000;

export interface NotificationListenerOptions {
  /** The PostgreSQL URL (the pool's own). */
  url: string | undefined;
  /** A channel name of our own (an SQL identifier: letters, digits, underscores). */
  channel: string;
  /** Shown in pg_stat_activity, so that an operator (or a test) can tell this connection apart. */
  applicationName: string;
  onNotification: (payload: string) => void;
}

/**
 * LISTEN on one channel, on a connection of its own (never the pool's: a pooled client would be handed to a
 * transaction, and a notification is only delivered to the session that listens). When the connection is lost
 * it listens again by itself, waiting longer after each failure. Nothing else ever runs on it but the heartbeat,
 * so no transaction waits on it. Notifications sent while it was not listening are lost: its users keep a
 * periodic check of their own (PostgreSQL documents no replay of missed notifications: SQL command NOTIFY).
 */
export class NotificationListener {
  private client?: pg.Client;
  private retry?: NodeJS.Timeout;
  private heartbeat?: NodeJS.Timeout;
  private wait = RELISTEN_MS;
  private closed = false;
  private listening = false;

  constructor(private readonly options: NotificationListenerOptions) {
    if (!/^[a-z_][a-z0-9_]*$/.test(options.channel)) throw new Error(`not a channel name: ${options.channel}`);
  }

  get isListening(): boolean {
    return this.listening;
  }

  /** Resolves once listening, or once the first attempt failed (it goes on trying in the background). */
  start(): Promise<void> {
    this.closed = false;
    return this.listen();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    clearInterval(this.heartbeat);
    const client = this.client;
    this.client = undefined;
    this.listening = false;
    await client?.end().catch(() => undefined);
  }

  private async listen(): Promise<void> {
    const { url, channel, applicationName } = this.options;
    const client = new pg.Client({ connectionString: url, keepAlive: true, query_timeout: HEARTBEAT_TIMEOUT_MS, application_name: applicationName });
    const lost = (err?: unknown) => {
      if (this.client !== client) return;
      this.client = undefined;
      this.listening = false;
      clearInterval(this.heartbeat);
      client.end().catch(() => undefined);
      if (this.closed) return;
      if (err) logger.warn({ err: err instanceof Error ? err.message : String(err), channel, retryInMs: this.wait }, 'database notifications lost; listening again');
      this.retry = setTimeout(() => void this.listen(), this.wait).unref();
      this.wait = Math.min(this.wait * 2, MAX_RELISTEN_MS);
    };
    this.client = client;
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (message) => message.channel === channel && this.options.onNotification(message.payload ?? ''));
    try {
      await client.connect();
      await client.query(`LISTEN ${channel}`);
      if (this.client !== client) return;
      this.listening = true;
      this.wait = RELISTEN_MS;
      this.heartbeat = setInterval(() => void client.query('SELECT 1').catch(lost), HEARTBEAT_MS).unref();
    } catch (err) {
      lost(err);
    }
  }
}
