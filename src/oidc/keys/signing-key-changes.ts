import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DATABASE_HANDLE, type DatabaseHandle } from '../../database/data-source-options.js';
import { type NotificationListener, NotificationListeners } from '../../database/notification-listener.js';

/** The channel every instance listens on; the payload is empty (a change means: read the key set again). */
export const SIGNING_KEYS_CHANGED_CHANNEL = 'signing_keys_changed';
export const SIGNING_KEYS_LISTENER_NAME = 'broker-signing-keys';

/**
 * How an instance learns of a key rotation made by another: the rotation's transaction sends a NOTIFY (delivered
 * to every listening session when it commits, so never before the rows are visible), and each instance LISTENs on
 * a connection of its own. PostgreSQL, not Redis: it is there in every production setup, and the notification
 * commits with the rows it announces. The embedded database is one process: nothing to tell, nothing listens.
 */
@Injectable()
export class SigningKeyChanges implements OnApplicationShutdown {
  private listener?: NotificationListener;

  constructor(
    @Inject(DATABASE_HANDLE) private readonly handle: DatabaseHandle,
    private readonly listeners: NotificationListeners,
  ) {}

  /** Inside the transaction that changes the published keys: every instance hears of it once it commits. */
  async announce(tx: EntityManager): Promise<void> {
    if (!this.handle.singleSession) await tx.query('SELECT pg_notify($1, $2)', [SIGNING_KEYS_CHANGED_CHANNEL, '']);
  }

  /**
   * Calls `onChange` for each rotation committed anywhere (here too) from now on, and each time it listens again
   * after a loss: a rotation committed meanwhile was not heard, so the caller checks the keys then.
   */
  async listen(onChange: () => void): Promise<void> {
    if (this.listener) return;
    let listenedBefore = false;
    this.listener = this.listeners.create({
      channel: SIGNING_KEYS_CHANGED_CHANNEL,
      applicationName: SIGNING_KEYS_LISTENER_NAME,
      onNotification: onChange,
      // Not the first time: the caller reads the keys itself once listening (a check before would find none yet).
      onListening: () => {
        if (listenedBefore) onChange();
        listenedBefore = true;
      },
    });
    await this.listener?.start();
  }

  /** Whether rotations elsewhere are heard now (always, on the embedded database: there is no elsewhere). */
  get isListening(): boolean {
    return this.handle.singleSession || (this.listener?.isListening ?? false);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.listener?.close();
  }
}
