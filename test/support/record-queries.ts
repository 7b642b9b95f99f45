import pg from 'pg';

export interface Query {
  text: string;
  values: unknown[];
}

/** Every query the service's pg clients send while `work` runs (the test app runs in this process). */
export async function recordQueries(work: () => Promise<void>): Promise<Query[]> {
  const seen: Query[] = [];
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string; values?: unknown[] } | undefined;
    const text = typeof first === 'string' ? first : (first?.text ?? '');
    const values = (typeof first === 'string' ? args[1] : first?.values) as unknown[] | undefined;
    seen.push({ text, values: Array.isArray(values) ? values : [] });
    return query.apply(this, args);
  } as typeof pg.Client.prototype.query;
  try {
    await work();
  } finally {
    pg.Client.prototype.query = query as typeof pg.Client.prototype.query;
  }
  return seen;
}
