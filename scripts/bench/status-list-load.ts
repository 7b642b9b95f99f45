/**
 * The verifier's side of bench-issuance's status-list figures: `count` GETs of one Status List Token (Token Status
 * List §8.1) with `concurrency` clients, every answer compared byte for byte with the first; and the anchor of the
 * figure, a bare node:http server in a process of its own answering the same bytes from a variable.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface GetRun {
  seconds: number;
  /** How many answers differed from the first (0: one token, served as built). */
  differing: number;
  first: string;
}

export async function getMany(url: string, count: number, concurrency: number): Promise<GetRun> {
  let first: string | undefined;
  let differing = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < count) {
        const res = await fetch(url);
        const body = await res.text();
        if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
        first ??= body;
        if (body !== first) differing++;
      }
    }),
  );
  return { seconds: (performance.now() - started) / 1000, differing, first: first ?? '' };
}

const BARE_SERVER = `
const token = process.env.BENCH_TOKEN;
const server = require('node:http').createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/statuslist+jwt', 'cache-control': 'max-age=300', 'access-control-allow-origin': '*' });
  res.end(token);
});
server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port) + '\\n'));
`;

/** The bare server, started with `token`; kill its child when done. */
export async function bareTokenServer(token: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['-e', BARE_SERVER], { env: { ...process.env, BENCH_TOKEN: token }, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (data: Buffer) => resolve(data.toString().trim()));
    child.once('exit', (code) => reject(new Error(`the bare server ended (${code})`)));
  });
  return { url: `http://127.0.0.1:${port}/`, child };
}
