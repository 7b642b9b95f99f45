/**
 * The holder's HTTP: the fetch it was given (a test may pass its own), answers read with a size bound, JSON parsed
 * with a clear error naming the endpoint, never the body (an issuer's answer may hold a token or personal data).
 */

export type Fetch = typeof fetch;

/** Enough for metadata, offers and a batch of credentials; a larger answer is refused, not buffered. */
export const MAX_ANSWER_BYTES = 1024 * 1024;

export interface HttpAnswer {
  status: number;
  headers: Headers;
  /** The parsed JSON body, or null when the body was empty or not JSON. */
  json: unknown;
}

async function boundedText(res: Response, what: string): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? '0');
  if (declared > MAX_ANSWER_BYTES) throw new Error(`${what}: the answer is larger than ${MAX_ANSWER_BYTES} bytes`);
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > MAX_ANSWER_BYTES) throw new Error(`${what}: the answer is larger than ${MAX_ANSWER_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** One request; the answer's status, headers and JSON body (null when not JSON). Redirects are not followed. */
export async function request(fetchImpl: Fetch, what: string, url: string, init: RequestInit = {}): Promise<HttpAnswer> {
  let res: Response;
  try {
    res = await fetchImpl(url, {
      redirect: 'manual',
      ...init,
      headers: { accept: 'application/json', ...(init.headers as Record<string, string> | undefined) },
    });
  } catch (e) {
    throw new Error(`${what}: ${url} could not be reached (${e instanceof Error ? e.message : String(e)})`);
  }
  const text = await boundedText(res, what);
  let json: unknown = null;
  try {
    json = text === '' ? null : JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: res.status, headers: res.headers, json };
}

/** The JSON object a 200 answer must carry; otherwise an error naming the endpoint and the OAuth error code, if any. */
export function expectObject(answer: HttpAnswer, what: string, status = 200): Record<string, unknown> {
  const body = answer.json;
  if (answer.status !== status) {
    const error =
      isObject(body) && typeof body.error === 'string'
        ? ` (${body.error}${typeof body.error_description === 'string' ? `: ${body.error_description.slice(0, 200)}` : ''})`
        : '';
    throw new Error(`${what}: the server answered ${answer.status}${error}`);
  }
  if (!isObject(body)) throw new Error(`${what}: the answer is not a JSON object`);
  return body;
}

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
