import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { logger } from '../common/logging/logger.js';
import { DATABASE_HANDLE, type DatabaseHandle } from './data-source-options.js';

/** First key of every advisory lock we take, so ours never collide with another application's on the server. */
export const JOB_LOCK_NAMESPACE = 0x1db0c4e;

/** The second key: a stable 32-bit number from the job's name (the same on every instance). */
export function jobLockKey(name: string): number {
  return createHash('sha256').update(name).digest().readInt32BE(0);
}

/**
 * Periodic jobs that every instance schedules but only one should run at a time (the purges): each run
 * takes a PostgreSQL advisory lock named after the job, without waiting; an instance that finds it held
 * skips this round, as the holder is doing the same work. The lock is session-level on a connection held
 * for the run, so it is released by the unlock or, if the instance dies, by the server closing the session.
 * The embedded database is one session in one process: advisory locks are re-entrant within a session, so
 * there the in-process guard is what keeps two runs apart (the lock is still taken, for the same code path).
 */
@Injectable()
export class ExclusiveJobs implements OnApplicationShutdown {
  private readonly running = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly dataSource: DataSource,
    @Inject(DATABASE_HANDLE) private readonly handle: DatabaseHandle,
  ) {}

  /** Runs `work` every `everyMs` on this instance, under the job's lock; failures are logged, never thrown. */
  schedule(name: string, everyMs: number, work: () => Promise<unknown>): void {
    const timer = setInterval(() => void this.run(name, work).catch((err: unknown) => logger.error({ err, job: name }, 'scheduled job failed')), everyMs);
    timer.unref();
    this.timers.add(timer);
  }

  /** Runs `work` unless the job is running (here or on another instance): whether it ran, and its result. */
  async run<T>(name: string, work: () => Promise<T>): Promise<{ ran: true; result: T } | { ran: false }> {
    if (this.running.has(name)) return { ran: false };
    this.running.add(name);
    try {
      return this.handle.singleSession ? await this.runOnSession(name, work) : await this.runOnOwnConnection(name, work);
    } finally {
      this.running.delete(name);
    }
  }

  onApplicationShutdown(): void {
    for (const t of this.timers) clearInterval(t);
    this.timers.clear();
  }

  private async runOnOwnConnection<T>(name: string, work: () => Promise<T>): Promise<{ ran: true; result: T } | { ran: false }> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      const key = jobLockKey(name);
      const [{ locked }] = (await runner.query('SELECT pg_try_advisory_lock($1, $2) AS locked', [JOB_LOCK_NAMESPACE, key])) as { locked: boolean }[];
      if (!locked) return { ran: false };
      try {
        return { ran: true, result: await work() };
      } finally {
        await runner.query('SELECT pg_advisory_unlock($1, $2)', [JOB_LOCK_NAMESPACE, key]);
      }
    } finally {
      await runner.release();
    }
  }

  /** The embedded database's one connection cannot be held for the run (the work needs it): lock, work, unlock. */
  private async runOnSession<T>(name: string, work: () => Promise<T>): Promise<{ ran: true; result: T } | { ran: false }> {
    const key = jobLockKey(name);
    const [{ locked }] = (await this.dataSource.query('SELECT pg_try_advisory_lock($1, $2) AS locked', [JOB_LOCK_NAMESPACE, key])) as { locked: boolean }[];
    if (!locked) return { ran: false };
    try {
      return { ran: true, result: await work() };
    } finally {
      await this.dataSource.query('SELECT pg_advisory_unlock($1, $2)', [JOB_LOCK_NAMESPACE, key]);
    }
  }
}
