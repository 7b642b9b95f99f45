import pg from 'pg';

/**
 * The pool's connections, each listening for its own errors from the moment it exists. A `pg` client that
 * emits `error` with no listener throws, and an uncaught throw ends the process. TypeORM listens while a query
 * runner holds a client and pg-pool while it is idle, but a client between the two (or held by code that
 * borrows it without a query runner) would take the whole instance down when PostgreSQL restarts or ends its
 * backend. An error here needs no action of its own: a query in flight is rejected with it, the listeners of the
 * pool or of TypeORM report it when they are there, and otherwise the client's holder finds it unusable at its
 * next query and the pool drops it on release. Seen once at the teardown of fault-database-restart: the server's
 * "terminating connection" error, thrown by a client with no listener (test/e2e/database-client-errors.e2e-spec.ts).
 */
export class SelfListeningClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    this.on('error', () => undefined);
  }
}
