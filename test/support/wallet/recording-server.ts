import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a stand-in server received, as the test inspects it. */
export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** The stand-in's answer to a request: status, headers, and a JSON body (null: none). */
export type StandInAnswer = (req: IncomingMessage, body: string) => Promise<[number, Record<string, string>, unknown]>;

export interface RecordingServer {
  /** http://127.0.0.1:<ephemeral port> */
  base: string;
  close(): Promise<void>;
}

/**
 * A stand-in issuer for the test wallet's unit tests: node:http on an ephemeral port, every request recorded into
 * `seen` (its path with or without the query) before `answer` answers it.
 */
export async function startRecordingServer(seen: SeenRequest[], answer: StandInAnswer, options: { keepQuery: boolean }): Promise<RecordingServer> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const url = req.url ?? '';
      seen.push({ method: req.method ?? '', path: options.keepQuery ? url : url.split('?')[0], headers: req.headers, body });
      void answer(req, body).then(([status, headers, json]) => res.writeHead(status, headers).end(json === null ? '' : JSON.stringify(json)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
