import { Inject, Injectable } from '@nestjs/common';
import pg from 'pg';
import { logger } from '../common/logging/logger.js';
import { DATABASE_HANDLE, type DatabaseHandle } from './data-source-options.js';

/** The first wait before listening again; doubled on each failure up to MAX_RELISTEN_MS, reset once listening. */
const RELISTEN_MS = 1_000;
const MAX_RELISTEN_MS = 30_000;
/** A connection attempt the server has not completed by then is given up: a frozen server would hold it for good. */
const CONNECT_TIMEOUT_MS = 5_000;
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
  /**
   * Called each time it starts listening, the first time included, right after `isListening` turned true. What
   * was sent while it was not listening is lost for good (PostgreSQL keeps no notification for a session that
   * was not there): whatever was built on the notifications is to be dropped or checked again here.
   */
  onListening?: () => void;
  /** Called once for each loss of the connection, right after `isListening` turned false. */
  onLost?: () => void;
}

/**
 * LISTEN on one channel, on a connection of its own (never the pool's: a pooled client would be handed to a
 * transaction, and a notification is only delivered to the session that listens). When the connection is lost
 * it listens again by itself, waiting longer after each failure. Nothing else ever runs on it but the heartbeat,
 * so no transaction waits on it. Notifications sent while it was not listening are lost: `onListening` tells its
 * user when to catch up (PostgreSQL documents no replay of missed notifications: SQL command NOTIFY).
 */
export class NotificationListener {
  private client?: pg.Client;
  private retry?: NodeJS.Timeout;
  private heartbeat?: NodeJS.Timeout;
  private wait = RELISTEN_MS;
  private closed = false;
  private listening = false;
  /** When the connection was lost (undefined while listening and before the first attempt). */
  private lostAt?: number;

  constructor(private readonly options: NotificationListenerOptions) {
    if (!/^[a-z_][a-z0-9_]*$/.test(options.channel)) throw new Error(`not a channel name: ${options.channel}`);
  }

  get channel(): string {
    return this.options.channel;
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
    const listening = this.listening;
    this.client = undefined;
    this.listening = false;
    if (!client) return;
    const ended = client.end().catch(() => undefined);
    // During a connection attempt a goodbye would wait on the server, which may never answer: cut it instead.
    if (!listening) client.connection.stream.destroy();
    await ended;
  }

  private async listen(): Promise<void> {
    const { url, channel, applicationName } = this.options;
    const client = new pg.Client({ connectionString: url, keepAlive: true, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, application_name: applicationName });
    const lost = (err?: unknown) => {
      if (this.client !== client) return;
      this.client = undefined;
      const wasListening = this.listening;
      this.listening = false;
      this.lostAt ??= Date.now();
      clearInterval(this.heartbeat);
      // pg cuts the socket itself when a query is unanswered, so this never waits on a dead server.
      client.end().catch(() => undefined);
      if (wasListening) this.options.onLost?.();
      if (this.closed) return;
      if (err)
        logger.warn({ err: err instanceof Error ? err.message : String(err), channel, retryInMs: this.wait }, 'database notifications lost; listening again');
      this.retry = setTimeout(() => void this.listen(), this.wait).unref();
      this.wait = Math.min(this.wait * 2, MAX_RELISTEN_MS);
    };
    this.client = client;
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (message) => message.channel === channel && this.options.onNotification(message.payload ?? ''));
    try {
      await client.connect();
      await answeredWithin(client.query(`LISTEN ${channel}`), HEARTBEAT_TIMEOUT_MS);
      if (this.client !== client) return;
      this.listening = true;
      this.wait = RELISTEN_MS;
      if (this.lostAt !== undefined) logger.info({ channel, downMs: Date.now() - this.lostAt }, 'database notifications heard again');
      this.lostAt = undefined;
      this.heartbeat = setInterval(() => void answeredWithin(client.query('SELECT 1'), HEARTBEAT_TIMEOUT_MS).catch(lost), HEARTBEAT_MS).unref();
      this.options.onListening?.();
    } catch (err) {
      lost(err);
    }
  }
}

/**
 * `answer`, or a rejection once it has not come within `ms`. A timer that comes due while the event loop is
 * blocked (a burst of CPU work, such as many large uploads at once) runs before the socket is read, and would
 * take an answer already waiting there for a lost connection; so the verdict waits one more turn of the loop,
 * whose poll phase reads what has arrived. (pg's own query_timeout judged at once: a stall cost the connection.)
 */
function answeredWithin<T>(answer: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => setImmediate(() => settled || reject(new Error(`no answer within ${ms} ms`))), ms);
    answer.then(
      (value) => {
        settled = true;
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        settled = true;
        clearTimeout(timer);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

/** What a user of notifications holds: a NotificationListener, or the embedded engine's listening. */
export interface Hearing {
  readonly channel: string;
  readonly isListening: boolean;
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The embedded engine's LISTEN: one session in this process, so a notification sent in it reaches it at commit
 * and is never lost (no connection to lose); it listens from start() to close().
 */
class EmbeddedHearing implements Hearing {
  private unlisten?: Promise<() => Promise<void>>;

  constructor(
    private readonly listen: NonNullable<DatabaseHandle['listen']>,
    private readonly options: Omit<NotificationListenerOptions, 'url'>,
  ) {}

  get channel(): string {
    return this.options.channel;
  }

  get isListening(): boolean {
    return this.unlisten !== undefined;
  }

  async start(): Promise<void> {
    this.unlisten ??= this.listen(this.options.channel, this.options.onNotification);
    await this.unlisten;
    this.options.onListening?.();
  }

  async close(): Promise<void> {
    const unlisten = this.unlisten;
    this.unlisten = undefined;
    // The engine may be closed already (a shutdown that closed the database first): nothing is left to stop then.
    await unlisten?.then((stop) => stop()).catch(() => undefined);
  }
}

/**
 * Makes the listeners of this application and knows them, so that /metrics can tell which are heard
 * (`broker_db_listener_up`); per application, since tests run several in one process.
 */
@Injectable()
export class NotificationListeners {
  private readonly listeners: NotificationListener[] = [];

  constructor(@Inject(DATABASE_HANDLE) private readonly handle: DatabaseHandle) {}

  /** A listener on the pool's database; none on the embedded one, which is one process: nothing to hear. */
  create(options: Omit<NotificationListenerOptions, 'url'>): NotificationListener | undefined {
    if (this.handle.singleSession) return undefined;
    const listener = new NotificationListener({ ...options, url: (this.handle.options as { url?: string }).url });
    this.listeners.push(listener);
    return listener;
  }

  /**
   * As create(), and on the embedded database its own LISTEN: for work woken by notifications sent in this very
   * process too (the CIBA outbox), where create() has nothing to hear.
   */
  hear(options: Omit<NotificationListenerOptions, 'url'>): Hearing | undefined {
    return this.handle.listen ? new EmbeddedHearing(this.handle.listen, options) : this.create(options);
  }

  /** Each listener's channel and whether it listens now. */
  states(): { channel: string; listening: boolean }[] {
    return this.listeners.map((l) => ({ channel: l.channel, listening: l.isListening }));
  }
}
