// Test-only client in a process of its own, so that its work (megabytes written, an event loop kept busy) is neither
// counted as the service's nor delays the test's own probes. argv[2] is JSON: baseUrl, bytes, requests: [{ path,
// headers }]. It builds one JSON body of `bytes` bytes, says `ready`, and on a line on stdin sends every request at
// once with that body; then it prints their statuses as JSON.
import { request } from 'node:http';
import { once } from 'node:events';

const { baseUrl, bytes, requests } = JSON.parse(process.argv[2]);
const head = '{"challenge_id":"c","frames":[{"step":0,"image":"';
const tail = '"}]}';
const body = bytes < head.length + tail.length ? Buffer.from('{}') : Buffer.from(head + 'A'.repeat(bytes - head.length - tail.length) + tail);

/** The status as soon as the answer's head arrives (a refusal may close the connection before the body is all sent), or the error before it. */
const send = ({ path, headers }) =>
  new Promise((resolve) => {
    const req = request(
      `${baseUrl}${path}`,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': String(body.length), ...headers } },
      (res) => {
        res.resume();
        resolve(res.statusCode);
      },
    );
    req.on('error', (e) => resolve(e.code));
    req.end(body);
  });

process.stdout.write('ready\n');
await once(process.stdin, 'data');
process.stdout.write(`${JSON.stringify(await Promise.all(requests.map(send)))}\n`);
process.exit(0);
