/**
 * Loaded with `node --import` into a server under measurement (profile-requests.ts): the CPU time of each HTTP
 * request, by method and path template (long ids folded to :id), from its arrival to its response's end.
 * Meaningful only with one request at a time. GET /__request-cpu/on starts counting, /__request-cpu/off stops
 * and answers the table as JSON; neither reaches the application.
 */
import http from 'node:http';

const table = new Map();
let counting = false;
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
      const key = `${req.method} ${req.url.replace(/\?.*/, '').replace(/[A-Za-z0-9_-]{30,}/g, ':id')}`;
      res.once('finish', () => {
        const used = process.cpuUsage(started);
        const row = table.get(key) ?? { count: 0, cpuMs: 0 };
        row.count++;
        row.cpuMs += (used.user + used.system) / 1000;
        table.set(key, row);
      });
    }
  }
  return emit.apply(this, arguments);
};
