/**
 * `npm run cluster -- --instances 2 [--port 8080]`: N instances of the service on one PostgreSQL (and Redis)
 * behind nginx, round robin without sticky sessions. Stops everything (and drops its database) on Ctrl-C.
 *
 *   DATABASE_URL  a PostgreSQL server (default postgresql://postgres@127.0.0.1:5432/postgres); a fresh
 *                 database is created on it for the cluster
 *   REDIS_URL     shared by every instance when set
 *   LOG_LEVEL     of the instances (default warn)
 */
import { parseArgs } from 'node:util';
import { buildOnce, startCluster } from './cluster/cluster.js';

const { values } = parseArgs({
  options: { instances: { type: 'string', default: '2' }, port: { type: 'string' } },
});
const instances = Number(values.instances);
if (!Number.isInteger(instances) || instances < 1 || instances > 16) {
  process.stderr.write('--instances must be a whole number from 1 to 16\n');
  process.exit(2);
}

buildOnce();
const cluster = await startCluster({
  instances,
  port: values.port ? Number(values.port) : undefined,
  databaseServer: process.env.DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres',
  redisUrl: process.env.REDIS_URL || undefined,
  logLevel: process.env.LOG_LEVEL,
});

const lines = [
  `Identity broker: ${instances} instance(s) behind nginx (round robin, no sticky sessions)`,
  `  proxy (issuer base): ${cluster.proxyUrl}`,
  `  discovery:           ${cluster.proxyUrl}/oidc/.well-known/openid-configuration`,
  `  database:            ${cluster.database} (new; dropped when the cluster stops)`,
  `  Redis:               ${process.env.REDIS_URL ? 'REDIS_URL' : 'none (short-lived state in PostgreSQL)'}`,
  `  admin API token:     ${cluster.adminToken}`,
  ...cluster.instances.map((i) => `  instance ${i.index}:          http://127.0.0.1:${i.port} (pid ${i.child.pid})`),
  'Ctrl-C stops everything.',
];
process.stdout.write(`${lines.join('\n')}\n`);

let stopping = false;
const shutdown = (why: string) => {
  if (stopping) return;
  stopping = true;
  process.stdout.write(`${why}: stopping nginx and the instances...\n`);
  void cluster.stop().then(
    () => process.exit(0),
    (err: unknown) => {
      process.stderr.write(`stop failed: ${String(err)}\n`);
      process.exit(1);
    },
  );
};
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));
// An instance or the proxy that dies takes the cluster down, rather than leaving it half there.
for (const i of cluster.instances) i.child.once('exit', (code) => shutdown(`instance ${i.index} exited (${code})`));
