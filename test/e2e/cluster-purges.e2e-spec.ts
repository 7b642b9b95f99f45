import pg from 'pg';
import { CIBA_PURGE_JOB, CibaPurgeService } from '../../src/ciba/ciba-purge.service.js';
import { ExclusiveJobs, JOB_LOCK_NAMESPACE, jobLockKey } from '../../src/database/exclusive-jobs.js';
import { OidcProviderService } from '../../src/oidc/provider/oidc-provider.service.js';
import { VerifierPurgeService } from '../../src/schemes/document-verifier/verifier-purge.service.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { describeWithPostgres } from '../support/describe-with-postgres.js';

/** Two finished callbacks old enough to be purged, and how many of them are left. */
async function seedOldCallbacks(t: TestApp): Promise<void> {
  await t.dataSource.query(`INSERT INTO ciba_outbox (client_id, kind, state, sealed, next_attempt_at, created_at, delivered_at) VALUES
    ('purge-test', 'ping', 'delivered', 'x', now(), now() - interval '3 hours', now() - interval '2 hours'),
    ('purge-test', 'ping', 'delivered', 'x', now(), now() - interval '3 hours', now() - interval '2 hours')`);
}
const oldCallbacksLeft = async (t: TestApp) => Number((await t.dataSource.query(`SELECT count(*) AS n FROM ciba_outbox WHERE client_id = 'purge-test'`))[0].n);

/** A session of our own on the instances' database, as a third party (an operator, another instance). */
async function session(t: TestApp): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: t.env.DATABASE_URL });
  await client.connect();
  return client;
}

describeWithPostgres('purge jobs with two instances on one database: one at a time (advisory lock)', () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    a = await startTestApp();
    b = await startTestApp({ sameDatabaseAs: a });
  });
  afterAll(async () => {
    await b?.app.close();
    await a?.close();
  });

  it('triggered on both instances at once, the CIBA purge runs on one; the other skips while it runs, and can run once it is done', async () => {
    await seedOldCallbacks(a);
    // A transaction of ours holds one of the rows, so the purge that gets the job lock stays inside its DELETE.
    const blocker = await session(a);
    try {
      await blocker.query('BEGIN');
      await blocker.query(`SELECT id FROM ciba_outbox WHERE client_id = 'purge-test' LIMIT 1 FOR UPDATE`);
      const first = a.app.get(CibaPurgeService).scheduledPurge();
      // Until a's purge holds the job lock (its DELETE then waits on our row lock, visible in pg_locks).
      let held = false;
      for (let i = 0; i < 250 && !held; i++) {
        const lock = await blocker.query(`SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND classid = $1::oid AND objid = $2::oid AND granted`, [
          JOB_LOCK_NAMESPACE,
          jobLockKey(CIBA_PURGE_JOB) >>> 0,
        ]);
        held = Boolean(lock.rowCount);
        if (!held) await new Promise((r) => setTimeout(r, 20));
      }
      expect(held).toBe(true);
      const [onB, againOnA] = await Promise.all([b.app.get(CibaPurgeService).scheduledPurge(), a.app.get(CibaPurgeService).scheduledPurge()]);
      expect(onB).toEqual({ ran: false });
      expect(againOnA).toEqual({ ran: false });
      expect(await oldCallbacksLeft(a)).toBe(2);
      await blocker.query('COMMIT');
      expect(await first).toMatchObject({ ran: true, result: { callbacks: 2 } });
      expect(await oldCallbacksLeft(a)).toBe(0);
      // Released: the other instance runs it next time (nothing left to delete).
      expect(await b.app.get(CibaPurgeService).scheduledPurge()).toMatchObject({ ran: true, result: { callbacks: 0 } });
    } finally {
      await blocker.end();
    }
  });

  it('every purge skips while the job lock is held elsewhere (here: by another session), and deletes nothing', async () => {
    await seedOldCallbacks(a);
    const holder = await session(a);
    try {
      for (const job of [CIBA_PURGE_JOB, 'oidc-purge', 'verifier-purge'])
        await holder.query('SELECT pg_advisory_lock($1, $2)', [JOB_LOCK_NAMESPACE, jobLockKey(job)]);
      for (const t of [a, b]) {
        expect(await t.app.get(CibaPurgeService).scheduledPurge()).toEqual({ ran: false });
        expect(await t.app.get(OidcProviderService).purge()).toBe(false);
        expect(await t.app.get(VerifierPurgeService).scheduledRun()).toEqual({ ran: false });
      }
      expect(await oldCallbacksLeft(a)).toBe(2);
    } finally {
      await holder.end(); // the session ends: its locks go with it
    }
    expect(await b.app.get(OidcProviderService).purge()).toBe(true);
    expect(await b.app.get(VerifierPurgeService).scheduledRun()).toMatchObject({ ran: true });
    expect(await b.app.get(CibaPurgeService).scheduledPurge()).toMatchObject({ ran: true, result: { callbacks: 2 } });
  });

  it('a failing job releases its lock: the next run, on either instance, is not blocked', async () => {
    const jobs = a.app.get(ExclusiveJobs);
    await expect(jobs.run('failing-job', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await b.app.get(ExclusiveJobs).run('failing-job', async () => 'ran')).toEqual({ ran: true, result: 'ran' });
  });
});

describe('purge jobs on the embedded database (one process, one session)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ embedded: true });
  });
  afterAll(() => t?.close());

  it('takes the lock on the one session and keeps two runs of a job apart within the process', async () => {
    const jobs = t.app.get(ExclusiveJobs);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const first = jobs.run('embedded-job', () => gate.then(() => 'first'));
    expect(await jobs.run('embedded-job', async () => 'second')).toEqual({ ran: false });
    // Other jobs are not held up by it.
    expect(await t.app.get(CibaPurgeService).scheduledPurge()).toMatchObject({ ran: true });
    release();
    expect(await first).toEqual({ ran: true, result: 'first' });
    expect(await jobs.run('embedded-job', async () => 'third')).toEqual({ ran: true, result: 'third' });
  });
});
