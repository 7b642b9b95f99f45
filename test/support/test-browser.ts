/**
 * A small stand-in for a user's browser: a cookie jar with path matching, manual redirects, and
 * form submission by data-* attribute, so end-to-end tests drive the broker pages over real HTTP.
 */
interface Cookie {
  name: string;
  value: string;
  path: string;
  /** Cookies belong to a host (not a port), as in a browser: an upstream eID on another host keeps its own. */
  host: string;
}

export interface Page {
  status: number;
  url: string;
  location?: string;
  html: string;
  /** The answer's Cache-Control header, if any. */
  cacheControl?: string;
}

export interface HtmlForm {
  action: string;
  method: string;
  attributes: Record<string, string>;
  fields: Record<string, string>;
}

const decodeEntities = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&#96;/g, '`')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

function parseAttributes(source: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of source.matchAll(/([a-zA-Z_:][-a-zA-Z0-9_:.]*)\s*=\s*"([^"]*)"/g)) out[m[1].toLowerCase()] = decodeEntities(m[2]);
  return out;
}

export function parseForms(html: string): HtmlForm[] {
  return [...html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)].map((m) => {
    const attributes = parseAttributes(m[1]);
    const fields: Record<string, string> = {};
    for (const input of m[2].matchAll(/<input\b([^>]*)>/g)) {
      const a = parseAttributes(input[1]);
      if (a.name) fields[a.name] = a.value ?? '';
    }
    return { action: attributes.action ?? '', method: (attributes.method ?? 'get').toLowerCase(), attributes, fields };
  });
}

export class TestBrowser {
  private readonly jar: Cookie[] = [];

  /** `headers` go with every request, e.g. the Accept-Language of the browser being played. */
  constructor(
    private readonly origin: string,
    private readonly headers: Record<string, string> = {},
    /** Another fetch (e.g. over TLS to a test proxy, test/support/tls-fetch.ts). */
    private readonly fetcher: typeof fetch = fetch,
  ) {}

  async get(url: string): Promise<Page> {
    return this.request(url, { method: 'GET' });
  }

  async post(url: string, fields: Record<string, string>): Promise<Page> {
    return this.request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  }

  /**
   * Submits the form whose attribute `data-<name>` equals `value` and, as a browser does, follows the
   * answer's redirects within this origin (the broker answers its POSTs 303, post/redirect/get).
   */
  async submit(page: Page, dataName: string, value: string, override: Record<string, string> = {}): Promise<Page> {
    const form = parseForms(page.html).find((f) => f.attributes[`data-${dataName}`] === value);
    if (!form) throw new Error(`no form with data-${dataName}="${value}" on ${page.url}:\n${page.html.slice(0, 2000)}`);
    return this.follow(await this.post(new URL(form.action, page.url).toString(), { ...form.fields, ...override }));
  }

  /** Follows redirects until one leaves this origin (the merchant's callback) or a page is shown. */
  async follow(page: Page, max = 10): Promise<Page> {
    let current = page;
    for (let i = 0; i < max && current.location; i++) {
      const next = new URL(current.location, current.url);
      if (next.origin !== this.origin) return current;
      current = await this.get(next.toString());
    }
    return current;
  }

  /** Any request with this browser's cookies (e.g. a form sent with an unusual content type). */
  async send(url: string, init: RequestInit): Promise<Page> {
    return this.request(url, init);
  }

  cookieNames(): string[] {
    return this.jar.map((c) => c.name);
  }

  /** The Cookie header this browser would send to `url`. */
  cookieHeader(url: string): string {
    const target = new URL(url);
    return this.jar
      .filter((c) => c.host === target.hostname)
      .filter((c) => target.pathname === c.path || target.pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`) || c.path === '/')
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  private async request(url: string, init: RequestInit): Promise<Page> {
    const target = new URL(url);
    const cookie = this.cookieHeader(url);
    const res = await this.fetcher(url, {
      ...init,
      redirect: 'manual',
      headers: { ...this.headers, ...(init.headers as Record<string, string>), ...(cookie ? { cookie } : {}) },
    });
    for (const header of res.headers.getSetCookie()) this.store(header, target);
    return {
      status: res.status,
      url,
      location: res.headers.get('location') ?? undefined,
      html: await res.text(),
      cacheControl: res.headers.get('cache-control') ?? undefined,
    };
  }

  private store(header: string, from: URL): void {
    const [pair, ...attributes] = header.split(';').map((s) => s.trim());
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    const attrs = Object.fromEntries(attributes.map((a) => [a.split('=')[0].toLowerCase(), a.split('=').slice(1).join('=')]));
    const path = attrs.path || from.pathname.replace(/\/[^/]*$/, '') || '/';
    const host = from.hostname;
    const index = this.jar.findIndex((c) => c.name === name && c.path === path && c.host === host);
    if (index >= 0) this.jar.splice(index, 1);
    const expired = attrs['max-age'] === '0' || (attrs.expires && new Date(attrs.expires).getTime() < Date.now());
    if (!expired) this.jar.push({ name, value, path, host });
  }
}
