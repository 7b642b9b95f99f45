import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import pg from 'pg';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock.js';
import { logger } from '../common/logging/logger.js';
import { DATABASE_HANDLE, type DatabaseHandle } from '../database/data-source-options.js';
import type { MerchantEntity } from './merchant.entity.js';

/** The channel every instance listens on; the payload is the changed merchant's client_id. */
export const MERCHANT_CHANGED_CHANNEL = 'merchant_changed';
/** A safety net only: entries are dropped on change at once; this bounds what a lost notification could cost. */
const MAX_AGE_MS = 60_000;
/** Merchants kept at most (the oldest entry goes first); unknown client ids are never kept. */
const MAX_ENTRIES = 10_000;
const RELISTEN_MS = 1_000;
/**
 * The listening connection is asked a trivial query this often, answering within HEARTBEAT_TIMEOUT_MS: a connection
 * cut without a reset (a silent network partition) would otherwise look alive while notifications are lost. So a
 * missed change is served from memory for at most about 8 s in the worst case, and never once the cut is seen.
 */
const HEARTBEAT_MS = 5_000;
const HEARTBEAT_TIMEOUT_MS = 3_000;

interface Entry {
  row: MerchantEntity;
  until: number;
}

/**
 * Merchant rows as the protocol paths read them, kept in memory: one login asked the database for its merchant six
 * times of its 21 queries, a code exchange once of 7. A change reaches every instance at once: the admin API's
 * transaction sends a NOTIFY on `merchant_changed` with the merchant's client_id (delivered when it commits), and
 * each instance LISTENs on a connection of its own and drops that entry. While that connection is down the cache is
 * emptied and not used (a change missed meanwhile can never be served stale), and it listens again by itself.
 * The embedded database is one process, so there a change is dropped locally and nothing listens.
 * Rows are kept as stored (the secret sealed) and frozen; `get` hands out copies, `getShared` the frozen row.
 */
@Injectable()
export class MerchantCache implements OnModuleInit, OnApplicationShutdown {
  private readonly entries = new Map<string, Entry>();
  /** Bumped on every drop: a load that began before one is not kept (it may have read the old row). */
  private generation = 0;
  private listening: boolean;
  private listener?: pg.Client;
  private retry?: NodeJS.Timeout;
  private heartbeat?: NodeJS.Timeout;
  private closed = false;

  constructor(
    @Inject(DATABASE_HANDLE) private readonly handle: DatabaseHandle,
    private readonly clock: Clock,
  ) {
    this.listening = handle.singleSession;
  }

  async onModuleInit(): Promise<void> {
    if (!this.handle.singleSession) await this.listen();
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    clearInterval(this.heartbeat);
    await this.listener?.end().catch(() => undefined);
  }

  /** Whether entries are kept and served (false while the notification connection is down). */
  get isListening(): boolean {
    return this.listening;
  }

  /** The merchant from memory, or `load`ed (and kept when found); undefined when unknown. A copy of its own. */
  async get(clientId: string, load: () => Promise<MerchantEntity | null>): Promise<MerchantEntity | undefined> {
    const row = await this.getShared(clientId, load);
    return row && copy(row);
  }

  /**
   * As `get`, but the kept row itself, frozen, with no copy: the same object until the merchant changes, so a caller
   * may derive something from it once and remember it by the row (the protocol paths read it on every request).
   */
  async getShared(clientId: string, load: () => Promise<MerchantEntity | null>): Promise<Readonly<MerchantEntity> | undefined> {
    const now = this.clock.now().getTime();
    const hit = this.listening ? this.entries.get(clientId) : undefined;
    if (hit && hit.until > now) return hit.row;
    const generation = this.generation;
    const loaded = await load();
    if (!loaded) return undefined;
    const row = Object.freeze(copy(loaded));
    if (this.listening && generation === this.generation) {
      this.entries.delete(clientId);
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(clientId, { row, until: now + MAX_AGE_MS });
    }
    return row;
  }

  /** Inside the transaction that changes a merchant: every instance drops it once the change commits. */
  async changed(tx: EntityManager, clientId: string): Promise<void> {
    this.forget(clientId);
    if (!this.handle.singleSession) await tx.query('SELECT pg_notify($1, $2)', [MERCHANT_CHANGED_CHANNEL, clientId]);
  }

  forget(clientId?: string): void {
    this.generation++;
    if (clientId === undefined) this.entries.clear();
    else this.entries.delete(clientId);
  }

  private async listen(): Promise<void> {
    const options = this.handle.options as { url?: string };
    const client = new pg.Client({ connectionString: options.url, keepAlive: true, query_timeout: HEARTBEAT_TIMEOUT_MS, application_name: 'broker-merchant-cache' });
    const deaf = (err?: unknown) => {
      if (this.listener !== client) return;
      this.listener = undefined;
      this.listening = false;
      clearInterval(this.heartbeat);
      this.forget();
      if (err) logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'merchant change notifications lost; merchant cache off until they resume');
      client.end().catch(() => undefined);
      if (!this.closed) this.retry = setTimeout(() => void this.listen(), RELISTEN_MS).unref();
    };
    this.listener = client;
    client.on('error', deaf);
    client.on('end', () => deaf());
    client.on('notification', (message) => message.channel === MERCHANT_CHANGED_CHANNEL && this.forget(message.payload ?? undefined));
    try {
      await client.connect();
      await client.query(`LISTEN ${MERCHANT_CHANGED_CHANNEL}`);
      // Changes made while deaf were missed: start from nothing.
      this.forget();
      this.listening = true;
      this.heartbeat = setInterval(() => void client.query('SELECT 1').catch(deaf), HEARTBEAT_MS).unref();
    } catch (err) {
      deaf(err);
    }
  }
}

function copy(row: Readonly<MerchantEntity>): MerchantEntity {
  return Object.assign(Object.create(Object.getPrototypeOf(row) as object) as MerchantEntity, row);
}
