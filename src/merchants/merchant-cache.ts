import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock.js';
import { DATABASE_HANDLE, type DatabaseHandle } from '../database/data-source-options.js';
import { type NotificationListener, NotificationListeners } from '../database/notification-listener.js';
import type { MerchantEntity } from './merchant.entity.js';

/** The channel every instance listens on; the payload is the changed merchant's client_id. */
export const MERCHANT_CHANGED_CHANNEL = 'merchant_changed';
/** A safety net only: entries are dropped on change at once; this bounds what a lost notification could cost. */
const MAX_AGE_MS = 60_000;
/** Merchants kept at most (the oldest entry goes first); unknown client ids are never kept. */
const MAX_ENTRIES = 10_000;

interface Entry {
  row: MerchantEntity;
  until: number;
}

/**
 * Merchant rows as the protocol paths read them, kept in memory: one login asked the database for its merchant six
 * times of its 21 queries, a code exchange once of 7. A change reaches every instance at once: the admin API's
 * transaction sends a NOTIFY on `merchant_changed` with the merchant's client_id (delivered when it commits), and
 * each instance LISTENs on a connection of its own (notification-listener.ts: a heartbeat every 5 s, listening again
 * by itself with a growing wait) and drops that entry. While that connection is down the cache is emptied and not
 * used (a change missed meanwhile can never be served stale); when it listens again the cache starts from nothing.
 * The embedded database is one process, so there a change is dropped locally and nothing listens.
 * Rows are kept as stored (the secret sealed) and frozen; `get` hands out copies, `getShared` the frozen row.
 */
@Injectable()
export class MerchantCache implements OnModuleInit, OnApplicationShutdown {
  private readonly entries = new Map<string, Entry>();
  /** Bumped on every drop: a load that began before one is not kept (it may have read the old row). */
  private generation = 0;
  private listener?: NotificationListener;

  constructor(
    @Inject(DATABASE_HANDLE) private readonly handle: DatabaseHandle,
    private readonly clock: Clock,
    private readonly listeners: NotificationListeners,
  ) {}

  async onModuleInit(): Promise<void> {
    this.listener = this.listeners.create({
      channel: MERCHANT_CHANGED_CHANNEL,
      applicationName: 'broker-merchant-cache',
      onNotification: (clientId) => this.forget(clientId),
      // Both run right after the listener's state turned, so no lookup sees the new state before the drop.
      // Listening (again): changes made while deaf were missed, and a load begun meanwhile may hold one.
      onListening: () => this.forget(),
      onLost: () => this.forget(),
    });
    await this.listener?.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.listener?.close();
  }

  /** Whether entries are kept and served (false while the notification connection is down). */
  get isListening(): boolean {
    return this.handle.singleSession || (this.listener?.isListening ?? false);
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
    const hit = this.isListening ? this.entries.get(clientId) : undefined;
    if (hit && hit.until > now) return hit.row;
    const generation = this.generation;
    const loaded = await load();
    if (!loaded) return undefined;
    const row = Object.freeze(copy(loaded));
    if (this.isListening && generation === this.generation) {
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
}

function copy(row: Readonly<MerchantEntity>): MerchantEntity {
  return Object.assign(Object.create(Object.getPrototypeOf(row) as object) as MerchantEntity, row);
}
