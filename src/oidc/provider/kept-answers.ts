import type { Request, Response } from 'express';

/** Answers kept at most: per path, one per public origin the service is reached by (several only behind a proxy). */
const MAX_ANSWERS = 32;
/** Set per request by the edge or by Node itself: never replayed from a kept answer. */
const PER_REQUEST = new Set(['x-request-id', 'date', 'connection', 'keep-alive', 'transfer-encoding']);

interface KeptAnswer {
  headers: [string, string | number | readonly string[]][];
  body: Buffer;
}

/**
 * The engine's answers that change only with the engine, the discovery document and the JWKS, replayed byte for byte:
 * every relying party fetches them, and the engine builds them afresh each time (the discovery document from the
 * whole configuration). Kept per engine: its keys and configuration are fixed when it is made, and a key change makes
 * a new engine, which starts with none. The key of an answer is its path and what the engine builds its URLs from
 * (Host, or the proxy's forwarded headers with TRUST_PROXY). A request with an Origin header goes to the engine,
 * whose CORS answer echoes that origin.
 */
export class KeptAnswers {
  private readonly answers = new Map<string, KeptAnswer>();

  /** Answers `req` from memory when it can; false when the engine must (then `keep` records its answer). */
  serve(req: Request, res: Response): boolean {
    const key = keyOf(req);
    const kept = key === undefined ? undefined : this.answers.get(key);
    if (!kept) return false;
    for (const [name, value] of kept.headers) res.setHeader(name, value);
    res.statusCode = 200;
    res.end(kept.body);
    return true;
  }

  /** Records the engine's answer to `req`, if it is one to replay (200, a GET without Origin, no cookie). */
  keep(req: Request, res: Response): void {
    const key = keyOf(req);
    if (key === undefined) return;
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    res.end = ((...args: unknown[]) => {
      const [chunk] = args;
      if (res.statusCode === 200 && !res.hasHeader('set-cookie') && (typeof chunk === 'string' || Buffer.isBuffer(chunk))) {
        const headers = Object.entries(res.getHeaders()).filter(([name]) => !PER_REQUEST.has(name)) as KeptAnswer['headers'];
        if (this.answers.size >= MAX_ANSWERS) this.answers.delete(this.answers.keys().next().value!);
        this.answers.set(key, { headers, body: Buffer.from(chunk) });
      }
      return end(...args);
    }) as Response['end'];
  }
}

/** What such an answer depends on; undefined for a request the engine must answer itself. */
function keyOf(req: Request): string | undefined {
  if (req.method !== 'GET' || req.headers.origin !== undefined) return undefined;
  const h = req.headers;
  return [req.path, h.host, h['x-forwarded-host'], h['x-forwarded-proto'], h['x-forwarded-port'], h.forwarded].map((v) => String(v ?? '')).join('\n');
}
