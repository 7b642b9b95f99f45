import type { Request, Response } from 'express';
import { hasBody } from './replayable-body.js';

/** How long a refused client may go on sending, unread, before its connection is closed: time to read the answer. */
const LINGER_MS = 2000;

/** Whether the request announced a body that has not all arrived yet. */
export const bodyLeftUnread = (req: Request): boolean => hasBody(req) && !req.complete;

/**
 * Answers a request whose body has not all arrived (refused by its headers, or over a limit) without reading the
 * rest, which may be megabytes or never end. Left alone, Node reads the rest to its end to keep the connection, or,
 * with `Connection: close`, reads on until the answer is written and then resets the connection, and a client still
 * sending meets the reset (EPIPE) before it has read the answer. So the answer says `Connection: close` and, once it
 * is written, the connection is half-closed and left unread for LINGER_MS (the client reads the answer; its writes
 * wait) before it is closed. Call before the answer is sent.
 */
export function closeWithoutReading(req: Request, res: Response): void {
  const socket = req.socket;
  res.setHeader('Connection', 'close');
  res.once('finish', () => {
    // Node's own finish handler has just run: it began to drain the body (req._dump, which resumes the socket on the
    // next tick) and called socket.destroySoon(), which ends the socket and destroys it once that end is written.
    // The end stays; the destroy waits; whatever resumes the socket, it is paused again.
    socket.removeListener('finish', socket.destroy);
    socket.on('resume', () => socket.pause());
    socket.pause();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    socket.once('close', () => clearTimeout(timer));
  });
}
