import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { fetchLogo } from './logo-fetcher.js';
import { inspectLogo } from '../../config/logo-image.js';
import { withIhdrBytes } from '../../../test/support/crafted-headers.js';
import { logoJpeg, logoPng, SCRIPTED_SVG } from '../../../test/support/logo-server.js';

/** A lossless WebP header (RIFF, WEBP, VP8L) of w × h pixels: enough for the header check. */
function webpHeader(width: number, height: number): Buffer {
  const b = Buffer.alloc(40);
  b.write('RIFF', 0, 'latin1');
  b.writeUInt32LE(32, 4);
  b.write('WEBPVP8L', 8, 'latin1');
  b.writeUInt32LE(20, 16);
  b[20] = 0x2f;
  b.writeUInt32LE((width - 1) | ((height - 1) << 14), 21);
  return b;
}

describe("merchant logo checks (by content, never by the server's Content-Type)", () => {
  it('takes PNG, JPEG and WebP with their dimensions', () => {
    expect(inspectLogo(logoPng(160, 48))).toEqual({ type: 'image/png', width: 160, height: 48 });
    expect(inspectLogo(logoJpeg(64, 32))).toEqual({ type: 'image/jpeg', width: 64, height: 32 });
    expect(inspectLogo(webpHeader(300, 100))).toEqual({ type: 'image/webp', width: 300, height: 100 });
  });

  it('refuses SVG (scripts), HTML, and a GIF', () => {
    expect(() => inspectLogo(Buffer.from(SCRIPTED_SVG))).toThrow(/SVG is refused/);
    expect(() => inspectLogo(Buffer.from('<!DOCTYPE html><script>x</script>'))).toThrow(/not a PNG, JPEG or WebP/);
    expect(() => inspectLogo(Buffer.from('GIF89a\x10\x00\x10\x00', 'latin1'))).toThrow(/not a PNG, JPEG or WebP/);
  });

  it('refuses dimensions out of bounds before decoding anything', () => {
    // The IHDR width a decompression bomb would claim, with the chunk's CRC made right (a wrong one is refused first).
    const huge = Buffer.from(withIhdrBytes(logoPng(16, 16), 0, [0, 0, 0x9c, 0x40]));
    expect(() => inspectLogo(huge)).toThrow(/40000×16 pixels/);
    expect(() => inspectLogo(Buffer.from(withIhdrBytes(logoPng(16, 16), 0, [0, 0, 0x9c, 0x40], true)))).toThrow(/IHDR chunk fails its CRC/);
    expect(() => inspectLogo(webpHeader(5000, 20))).toThrow(/5000×20 pixels/);
    expect(() => inspectLogo(logoPng(8, 8))).toThrow(/8×8 pixels/);
  });

  it('refuses a file that only starts like an image', () => {
    expect(() => inspectLogo(logoPng().subarray(0, 60))).toThrow(/not a valid PNG image/);
    const jpegStart = logoJpeg();
    expect(() => inspectLogo(Buffer.concat([jpegStart.subarray(0, 200), Buffer.alloc(50)]))).toThrow(/JPEG/);
  });
});

describe('merchant logo fetch under the production policy (no loopback, no private addresses, https only)', () => {
  const production = { allowLoopback: false };

  it('refuses plain http before fetching', async () => {
    await expect(fetchLogo('http://shop.example/logo.png', production)).rejects.toMatchObject({ status: 400, fields: { logo_uri: ['must use https'] } });
  });

  it('refuses loopback and private addresses at connect time, with the same words as an address that does not answer', async () => {
    // A listening TLS port on 127.0.0.1: reachable, yet refused because of its address.
    const server = createTlsServer((_req, res) => res.end('x'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      for (const url of [`https://127.0.0.1:${port}/logo.png`, 'https://10.0.0.1/logo.png', 'https://[::1]/logo.png', 'https://169.254.169.254/latest'])
        await expect(fetchLogo(url, production)).rejects.toMatchObject({
          status: 400,
          fields: { logo_uri: ['could not be fetched (no answer, a refused address, or too slow)'] },
          detail: expect.stringMatching(/not allowed|private|refused|meta/i),
        });
    } finally {
      server.close();
    }
  });
});
