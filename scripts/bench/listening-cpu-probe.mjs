/**
 * Loaded with `--import` by `npm run bench:startup` (BENCH_CPU=1): when an HTTP server of the started process begins
 * listening, appends the CPU its main thread and the whole process have used so far, and the wall time since the
 * process began, to the file named by BENCH_PROBE_FILE. CPU is what start-up costs whatever else the machine runs;
 * the wall time is not. Other processes that load it (npm, tsc) never listen and write nothing.
 */
import { appendFileSync } from 'node:fs';
import { Server } from 'node:http';

const file = process.env.BENCH_PROBE_FILE;
const listen = Server.prototype.listen;
if (file)
  Server.prototype.listen = function (...args) {
    this.once('listening', () => {
      const main = process.threadCpuUsage?.(); // Node 23.9+
      const all = process.cpuUsage();
      const ms = (u) => (u ? (u.user + u.system) / 1000 : NaN);
      appendFileSync(file, `${JSON.stringify({ wall: performance.now(), mainCpu: ms(main), processCpu: ms(all) })}\n`);
    });
    return listen.apply(this, args);
  };
