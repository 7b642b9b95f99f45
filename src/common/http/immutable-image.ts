import type { Response } from 'express';

/**
 * Answers an image whose address carries the hash of its bytes (a logo): cacheable for good, its type the one
 * found by magic bytes (nosniff: never read as anything else), and no active content if opened on its own.
 */
export function sendImmutableImage(res: Response, contentType: string, bytes: Buffer): void {
  res
    .status(200)
    .set({
      'Content-Type': contentType,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'public, max-age=31536000, immutable',
      'Content-Security-Policy': "default-src 'none'",
    })
    .send(bytes);
}
