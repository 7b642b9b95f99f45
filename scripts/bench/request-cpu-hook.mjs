/**
 * Loaded with `node --import` into a server under measurement (profile-requests.ts): the CPU time of each HTTP
 * request, by method and path template (long ids folded to :id), from its arrival to its response's end.
 * Meaningful only with one request at a time. GET /__request-cpu/on starts counting, /__request-cpu/off stops
 * and answers the table as JSON; neither reaches the application.
 */
import http from 'node:http';
import net from 'node:net';

const table = new Map();
let counting = false;

/**
 * Socket writes (one system call each, costly on a sandboxed machine) while counting, by peer: the request's own
 * response, PostgreSQL (port 5432) and Redis (6379). Meaningful, like the CPU, one request at a time.
 */
const writes = { http: 0, postgres: 0, redis: 0, other: 0 };
const peer = (socket) => (socket.remotePort === 5432 ? 'postgres' : socket.remotePort === 6379 ? 'redis' : socket.server ? 'http' : 'other');
for (const name of ['_write', '_writev']) {
  const original = net.Socket.prototype[name];
  net.Socket.prototype[name] = function () {
    writes[peer(this)]++;
    return original.apply(this, arguments);
  };
}
const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function (event, req, res) {
  if (event === 'request') {
    if (req.url.startsWith('/__request-cpu/')) {
      counting = req.url.endsWith('/on');
      if (counting) table.clear();
      res.end(JSON.stringify([...table]));
      return true;
    }
    if (counting) {
      const started = process.cpuUsage();
      const writesBefore = { ...writes };
      const key = `${req.method} ${req.url.replace(/\?.*/, '').replace(/[A-Za-z0-9_-]{30,}/g, ':id')}`;
      res.once('finish', () => {
        const used = process.cpuUsage(started);
        const row = table.get(key) ?? { count: 0, cpuMs: 0, writes: { http: 0, postgres: 0, redis: 0, other: 0 } };
        row.count++;
        row.cpuMs += (used.user + used.system) / 1000;
        for (const k of Object.keys(writes)) row.writes[k] += writes[k] - writesBefore[k];
        table.set(key, row);
      });
    }
  }
  return emit.apply(this, arguments);
};
