import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';

/** A small logo: a blue badge with a white bar, as a merchant would register (w × h pixels). */
export function logoPng(width = 160, height = 48): Buffer {
  const png = new PNG({ width, height });
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const bar = y > height / 3 && y < (2 * height) / 3 && x > width / 8 && x < (7 * width) / 8;
      png.data.set(bar ? [255, 255, 255, 255] : [20, 90, 70, 255], i);
    }
  return PNG.sync.write(png);
}

export function logoJpeg(width = 64, height = 32): Buffer {
  return jpeg.encode({ width, height, data: Buffer.alloc(width * height * 4, 0x80) }, 80).data;
}

export const SCRIPTED_SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><script>alert(1)</script><rect width="64" height="64"/></svg>';

export interface LogoServer {
  url: (path: string) => string;
  /** Requests seen per path: the broker fetches a logo once, at registration, never at page time. */
  hits: Map<string, number>;
  close(): Promise<void>;
}

/**
 * The merchant's web server on 127.0.0.1 (reachable in customer-test only). Paths: /logo.png, /other.png,
 * /logo.jpg, /scripted.svg (an SVG labelled image/png), /big.png (300 KiB), /page.html, /tiny.png (8 × 8),
 * /moved.png (302 to /logo.png), anything else 404.
 */
export async function startLogoServer(): Promise<LogoServer> {
  const big = Buffer.concat([logoPng(), Buffer.alloc(300 * 1024)]);
  const answers: Record<string, { type: string; body: Buffer | string; status?: number; headers?: Record<string, string> }> = {
    '/logo.png': { type: 'image/png', body: logoPng() },
    '/other.png': { type: 'image/png', body: logoPng(120, 60) },
    '/logo.jpg': { type: 'image/jpeg', body: logoJpeg() },
    '/scripted.svg': { type: 'image/png', body: SCRIPTED_SVG },
    '/big.png': { type: 'image/png', body: big },
    '/page.html': { type: 'text/html', body: '<!DOCTYPE html><p>not a logo</p>' },
    '/tiny.png': { type: 'image/png', body: logoPng(8, 8) },
    '/moved.png': { type: 'text/plain', body: '', status: 302, headers: { location: '/logo.png' } },
  };
  const hits = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const answer = answers[path];
    if (!answer) return void res.writeHead(404).end();
    res.writeHead(answer.status ?? 200, { 'content-type': answer.type, ...answer.headers }).end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
